import { useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/cn';
import { flattenTree, type TreeNode } from './tree';

export type { TreeNode } from './tree';

export interface TreeSelectProps {
  tree: readonly TreeNode[];
  value?: string;
  onChange(value: string | undefined): void;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  className?: string;
  'aria-label'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
}

/**
 * One node of a tree (an organisation, department or parent college): a button showing the chosen node's label, opening
 * the indented tree as a listbox. Arrow keys move, Enter or Space chooses.
 */
export function TreeSelect({ tree, value, onChange, placeholder, disabled, id, className, ...aria }: TreeSelectProps) {
  const { t } = useTranslation('ui');
  const [open, setOpen] = useState(false);
  const rows = flattenTree(tree);
  const chosen = rows.find((r) => r.node.id === value)?.node;
  const choose = (node: TreeNode) => {
    if (node.disabled) return;
    onChange(node.id);
    setOpen(false);
  };
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild disabled={disabled}>
        <button
          type="button"
          id={id}
          {...aria}
          className={cn(
            'flex h-9 w-full items-center justify-between max-md:min-h-11 gap-2 rounded-md border border-input bg-background px-3 text-left text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50 aria-invalid:border-destructive',
            className,
          )}
        >
          <span className={cn('truncate', !chosen && 'text-muted-foreground')}>{chosen?.label ?? placeholder ?? t('select.placeholder')}</span>
          <ChevronDown aria-hidden className="size-4 opacity-50" />
        </button>
      </PopoverTrigger>
      <PopoverContent align="start" className="max-h-72 w-(--radix-popover-trigger-width) overflow-auto p-1">
        <ul
          role="listbox"
          className="grid"
          onKeyDown={(e) => {
            const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role=option]')];
            const at = items.indexOf(document.activeElement as HTMLElement);
            const next = e.key === 'ArrowDown' ? at + 1 : e.key === 'ArrowUp' ? at - 1 : null;
            if (next !== null && items[next]) {
              e.preventDefault();
              items[next].focus();
            }
          }}
        >
          {rows.map(({ node, depth }) => (
            <li
              key={node.id}
              role="option"
              tabIndex={0}
              aria-selected={node.id === value}
              aria-disabled={node.disabled || undefined}
              style={{ paddingLeft: 8 + depth * 16 }}
              className={cn(
                'cursor-pointer rounded-sm py-1.5 pr-2 text-sm outline-none hover:bg-muted focus-visible:bg-muted',
                node.id === value && 'font-medium text-primary',
                node.disabled && 'cursor-not-allowed opacity-50',
              )}
              onClick={() => choose(node)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  choose(node);
                }
              }}
            >
              {node.label}
            </li>
          ))}
        </ul>
      </PopoverContent>
    </Popover>
  );
}
