import { useTranslation } from 'react-i18next';
import { SEMESTER } from '@/domain/constants';
import type { LoadTerm } from '@/domain/lesson-load/reports';
import { Select } from '@/components/ui/select';

/** School year and semester of a report; the answer's term is what is shown until the user picks another. */
export function TermFilter({ term, onChange }: { term: LoadTerm | undefined; onChange(next: { schoolYear: number; semester: number }): void }) {
  const { t } = useTranslation('lessonLoad');
  if (!term) return null;
  const years = Array.from({ length: 5 }, (_, i) => term.schoolYear + 1 - i);
  return (
    <>
      <Select
        aria-label={t('summary.schoolYear')}
        className="w-36"
        value={String(term.schoolYear)}
        onValueChange={(v) => onChange({ schoolYear: Number(v), semester: term.semester })}
        options={years.map((y) => ({ value: String(y), label: `${y}-${y + 1}` }))}
      />
      <Select
        aria-label={t('summary.term')}
        className="w-44"
        value={String(term.semester)}
        onValueChange={(v) => onChange({ schoolYear: term.schoolYear, semester: Number(v) })}
        options={[SEMESTER.autumn, SEMESTER.spring].map((s) => ({ value: String(s), label: t(`summary.semester.${s}`) }))}
      />
    </>
  );
}

/** The term's description line. */
export function termText(t: (k: string, o?: Record<string, unknown>) => string, term: LoadTerm) {
  return { year: `${term.schoolYear}-${term.schoolYear + 1}`, semester: t(`summary.semester.${term.semester}`), from: term.from, to: term.to };
}
