import { useId, type CSSProperties } from 'react';
import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { GripVertical, PanelLeft, PanelRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DENSITIES, type Density } from '@/domain/list-settings/list-settings';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { RadioChoice, RadioGroup } from '@/components/ui/radio-group';
import { cn } from '@/lib/cn';
import type { ColumnSettingsItem, ColumnSettingsProps } from './column-settings';

/** The popover's content (column-settings.tsx), loaded when first opened: drag and drop is not in every list's bundle. */
export function ColumnSettingsPanel({ columns, settings, resolved, onChange, onReset }: ColumnSettingsProps) {
  const { t } = useTranslation('listSettings');
  const densityId = useId();
  const byId = new Map(columns.map((c) => [c.id, c]));
  const movable = resolved.order.filter((id) => byId.has(id) && !byId.get(id)!.fixed);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const hidden = new Set(Object.keys(resolved.visibility).filter((id) => resolved.visibility[id] === false));
  const setShown = (id: string, shown: boolean) => {
    const next = new Set(settings.hidden);
    if (shown) next.delete(id);
    else next.add(id);
    onChange({ ...settings, hidden: [...next] });
  };
  const pinned = (id: string) => (resolved.pinStart.includes(id) ? 'start' : resolved.pinEnd.includes(id) ? 'end' : false);
  const setPin = (id: string, side: 'start' | 'end') => {
    const was = pinned(id);
    const pinStart = settings.pinStart.filter((x) => x !== id);
    const pinEnd = settings.pinEnd.filter((x) => x !== id);
    if (was !== side) (side === 'start' ? pinStart : pinEnd).push(id);
    onChange({ ...settings, pinStart, pinEnd });
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onChange({ ...settings, order: arrayMove(movable, movable.indexOf(String(active.id)), movable.indexOf(String(over.id))) });
  };

  return (
    <>
      <div className="grid gap-1">
        <h2 className="text-sm font-medium">{t('title')}</h2>
        <p className="text-xs text-muted-foreground">{t('hint')}</p>
      </div>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements: {
            onDragStart: () => '',
            onDragOver: ({ over }) => (over ? t('moved', { name: byId.get(String(over.id))?.label ?? '', position: movable.indexOf(String(over.id)) + 1 }) : ''),
            onDragEnd: ({ active, over }) => (over ? t('moved', { name: byId.get(String(active.id))?.label ?? '', position: movable.indexOf(String(over.id)) + 1 }) : ''),
            onDragCancel: () => '',
          },
        }}
      >
        <SortableContext items={movable} strategy={verticalListSortingStrategy}>
          <ul className="grid max-h-80 gap-0.5 overflow-y-auto" data-testid="column-settings-list">
            {movable.map((id) => (
              <SortableColumn
                key={id}
                column={byId.get(id)!}
                shown={!hidden.has(id)}
                pin={pinned(id)}
                onShown={(v) => setShown(id, v)}
                onPin={(side) => setPin(id, side)}
              />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      <div className="grid gap-2 border-t pt-3">
        <span id={densityId} className="text-sm font-medium">
          {t('density')}
        </span>
        <RadioGroup
          aria-labelledby={densityId}
          value={settings.density}
          onValueChange={(v) => onChange({ ...settings, density: v as Density })}
          className="flex gap-4"
          data-testid="column-settings-density"
        >
          {DENSITIES.map((d) => (
            <RadioChoice key={d} id={`${densityId}-${d}`} value={d}>
              {t(`densities.${d}`)}
            </RadioChoice>
          ))}
        </RadioGroup>
      </div>
      <Button variant="ghost" size="sm" className="justify-self-start" onClick={onReset} data-testid="column-settings-reset">
        {t('reset')}
      </Button>
    </>
  );
}

interface SortableColumnProps {
  column: ColumnSettingsItem;
  shown: boolean;
  pin: 'start' | 'end' | false;
  onShown(shown: boolean): void;
  onPin(side: 'start' | 'end'): void;
}

function SortableColumn({ column, shown, pin, onShown, onPin }: SortableColumnProps) {
  const { t } = useTranslation('listSettings');
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: column.id });
  const style: CSSProperties = {
    transform: transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined,
    transition,
  };
  const checkboxId = `column-settings-${column.id}`;
  return (
    <li
      ref={setNodeRef}
      style={style}
      data-testid={`column-settings-item-${column.id}`}
      className={cn('flex items-center gap-2 rounded-md bg-popover px-1 py-1', isDragging && 'relative z-10 shadow-md')}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={t('drag', { name: column.label })}
        className="cursor-grab touch-none rounded-sm p-0.5 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <GripVertical aria-hidden className="size-4" />
      </button>
      <Checkbox id={checkboxId} checked={shown} disabled={column.keep} onCheckedChange={(v) => onShown(v === true)} aria-label={t('show', { name: column.label })} title={column.keep ? t('keep') : undefined} />
      <label htmlFor={checkboxId} className={cn('min-w-0 flex-1 truncate text-sm', !shown && 'text-muted-foreground')}>
        {column.label}
      </label>
      <div role="group" aria-label={t('pin', { name: column.label })} className="flex">
        <PinButton pressed={pin === 'start'} label={t('pinStart')} onClick={() => onPin('start')} side="start" />
        <PinButton pressed={pin === 'end'} label={t('pinEnd')} onClick={() => onPin('end')} side="end" />
      </div>
    </li>
  );
}

function PinButton({ pressed, label, onClick, side }: { pressed: boolean; label: string; onClick(): void; side: 'start' | 'end' }) {
  const Icon = side === 'start' ? PanelLeft : PanelRight;
  return (
    <button
      type="button"
      aria-pressed={pressed}
      aria-label={label}
      title={label}
      onClick={onClick}
      className={cn(
        'rounded-sm p-1 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        pressed ? 'bg-primary text-primary-foreground' : 'text-muted-foreground hover:bg-accent hover:text-foreground',
      )}
    >
      <Icon aria-hidden className="size-3.5" />
    </button>
  );
}
