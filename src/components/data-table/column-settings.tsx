import { lazy, Suspense } from 'react';
import { Columns3 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ListColumnInfo, ListSettings, ResolvedListSettings } from '@/domain/list-settings/list-settings';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { Spinner } from '@/components/ui/spinner';

// Drag and drop loads with the popover's first opening, not with every list.
const ColumnSettingsPanel = lazy(() => import('./column-settings-panel').then((m) => ({ default: m.ColumnSettingsPanel })));

/** A column as the settings list shows it. */
export interface ColumnSettingsItem extends ListColumnInfo {
  label: string;
}

export interface ColumnSettingsProps {
  columns: readonly ColumnSettingsItem[];
  /** What is stored (the user's choices). */
  settings: ListSettings;
  /** What the list shows (the stored choices applied to these columns). */
  resolved: ResolvedListSettings;
  onChange(next: ListSettings): void;
  onReset(): void;
}

/**
 * The "columns" button of a list's toolbar and its popover (docs/adding-a-screen.md, column settings): show or hide
 * each column (the key, select and actions columns stay), order by dragging (pointer, or Space and the arrow keys on a
 * handle), pin to the left or right edge, the row density, and a reset to the list's defaults. Every change is applied
 * at once and saved by useColumnSettings.
 */
export function ColumnSettings(props: ColumnSettingsProps) {
  const { t } = useTranslation('listSettings');
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" data-testid="list-columns">
          <Columns3 aria-hidden />
          {t('button')}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="grid w-80 gap-3 p-3" data-testid="column-settings">
        <Suspense fallback={<Spinner label={t('title')} />}>
          <ColumnSettingsPanel {...props} />
        </Suspense>
      </PopoverContent>
    </Popover>
  );
}
