import type { SchoolFamily } from '@/domain/menus/access';
import { useState } from 'react';
import { FileDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { alreadyShown } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { download, saveFile } from '@/lib/api-client';
import { meets } from '../api';

const KINDS = [
  { kind: 'resultsBook', file: 'results-book.pdf' },
  { kind: 'pointsTable', file: 'points-table.pdf' },
] as const;

/**
 * The meet's results book (成绩册) and points tables as PDF (server-made, A4), beside its order of events and heat
 * sheets, and the points tables on the points screen; each button shows only with its catalogue permission (the points
 * page's `export` also gives the points tables, as on the server).
 */
export function MeetBookButtons({ family, meetId, only }: { family: SchoolFamily; meetId: string; only?: (typeof KINDS)[number]['kind'] }) {
  const { t } = useTranslation('meets');
  const access = usePageAccess(`${family}.sportsMeet.manage`);
  const points = usePageAccess('single.sportsMeet.points');
  const allowed = (kind: (typeof KINDS)[number]['kind']) => access.can(kind) || (kind === 'pointsTable' && points.can('export'));
  const [busy, setBusy] = useState<string | null>(null);
  const fetchBook = async (kind: string, file: string) => {
    setBusy(kind);
    try {
      saveFile(await download(`${meets(family).base}/${meetId}/${file}`), file);
    } catch (e) {
      // Above the export threshold the shell's approval request shows the message instead.
      if (!alreadyShown(e)) toast.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      {KINDS.filter((k) => (!only || k.kind === only) && allowed(k.kind)).map(({ kind, file }) => (
        <Button key={kind} variant="outline" className="print:hidden" loading={busy === kind} disabled={!meetId || busy !== null} onClick={() => void fetchBook(kind, file)} data-testid={`download-${kind}`}>
          <FileDown aria-hidden /> {t(`book.${kind}`)}
        </Button>
      ))}
    </>
  );
}
