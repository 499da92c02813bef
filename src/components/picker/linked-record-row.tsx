import type { ReactNode } from 'react';
import { X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { PickerOption } from './search-picker';

/**
 * A record a form linked through `SearchPicker`: its name and hint, the link's own fields (e.g. the relation) and a
 * remove button (a student's parents, a parent's children).
 */
export function LinkedRecordRow({ record, removeLabel, onRemove, children, 'data-testid': testId }: { record: PickerOption | undefined; removeLabel: string; onRemove(): void; children?: ReactNode; 'data-testid'?: string }) {
  return (
    <div className="grid items-start gap-4 rounded-md border p-3 md:grid-cols-[1fr_1fr_auto]" data-testid={testId}>
      <div className="grid gap-1 pt-1 text-sm">
        <span className="font-medium break-all">{record?.name}</span>
        <span className="text-muted-foreground">{record?.hint}</span>
      </div>
      {children}
      <RemoveButton label={removeLabel} onClick={onRemove} />
    </div>
  );
}

/** The × that removes a row of a form's list. */
export function RemoveButton({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <Button type="button" variant="ghost" size="icon" className="mt-6" aria-label={label} title={label} onClick={onClick}>
      <X aria-hidden />
    </Button>
  );
}
