import { ListTodo } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useTodos } from '../api';
import { todoLabel } from './todo-label';

/**
 * The landing page's to-do row (docs/product-rules.md#to-dos-and-messages): each item with its count links to the
 * filtered list that shows those rows; nothing shows while nothing waits.
 */
export function TodoPanel() {
  const { t } = useTranslation('messages');
  const todos = useTodos();
  const items = todos.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-label={t('todo.panelLabel')} className="flex flex-wrap items-center gap-2 rounded-lg border bg-card px-3 py-2 shadow-xs" data-testid="todo-panel">
      <span className="flex items-center gap-1.5 pr-1 text-sm font-semibold">
        <ListTodo aria-hidden className="size-4 text-primary" />
        {t('todo.title')}
      </span>
      {items.map((item) => (
        <Link
          key={item.to}
          to={item.to}
          className="flex min-h-9 items-center gap-2 rounded-md border px-3 text-sm hover:bg-accent"
          data-testid="todo-panel-item"
          data-kind={item.kind}
        >
          <span className="max-w-56 truncate">{todoLabel(t, item)}</span>
          <span className="rounded-full bg-destructive/10 px-2 text-xs font-medium text-destructive tabular-nums">{item.count}</span>
        </Link>
      ))}
    </section>
  );
}
