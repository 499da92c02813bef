import { useState } from 'react';
import { Bell } from 'lucide-react';
import { TODO_LATEST_MESSAGES } from '@/domain/messages/messages';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/cn';
import { useDateTime } from '@/lib/date-time';
import { useLatestMessages, useTodos } from '../api';
import { todoLabel } from './todo-label';

/**
 * The header's bell (docs/product-rules.md#to-dos-and-messages): the number of rows waiting for the user, and a popover
 * with each to-do (a link to the filtered list) and the latest messages. The to-dos are asked again every minute and
 * when the window regains focus.
 */
export function TodoBell() {
  const { t } = useTranslation('messages');
  const at = useDateTime();
  const [open, setOpen] = useState(false);
  const todos = useTodos();
  const latest = useLatestMessages(open);
  const total = todos.data?.total ?? 0;
  const unread = todos.data?.unread ?? 0;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        {/* Named by its own text (the words hidden, then the count), so the name holds what is seen (axe: label-content-name-mismatch). */}
        <Button variant="ghost" size="icon" data-testid="todo-bell" className="relative">
          <Bell aria-hidden />
          <span className="sr-only">{t('bell.open')}</span>
          {total > 0 ? (
            <span className="absolute -top-0.5 -right-0.5 grid h-4 min-w-4 place-items-center rounded-full bg-destructive px-1 text-[10px] text-white tabular-nums" data-testid="todo-bell-count">
              {total > 99 ? '99+' : total}
            </span>
          ) : unread > 0 ? (
            <span aria-hidden className="absolute top-1 right-1 size-2 rounded-full bg-primary" data-testid="todo-bell-unread" />
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 p-0" data-testid="todo-popover">
        <div className="border-b px-4 py-2.5 text-sm font-semibold">{t('bell.todos')}</div>
        {todos.data && todos.data.items.length > 0 ? (
          <ul className="divide-y">
            {todos.data.items.map((item) => (
              <li key={item.to}>
                <Link to={item.to} onClick={() => setOpen(false)} className="flex items-center justify-between gap-3 px-4 py-2.5 text-sm hover:bg-accent" data-testid="todo-bell-item" data-kind={item.kind}>
                  <span className="min-w-0 truncate">{todoLabel(t, item)}</span>
                  <span className="shrink-0 rounded-full bg-destructive/10 px-2 text-xs font-medium text-destructive tabular-nums">{item.count}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="px-4 py-3 text-sm text-muted-foreground">{t('bell.noTodos')}</p>
        )}
        <div className="border-y px-4 py-2.5 text-sm font-semibold">{t('bell.latest')}</div>
        {latest.data && latest.data.records.length > 0 ? (
          <ul className="max-h-64 divide-y overflow-y-auto">
            {latest.data.records.slice(0, TODO_LATEST_MESSAGES).map((m) => (
              <li key={m.id} className="grid gap-0.5 px-4 py-2.5 text-sm" data-testid="todo-bell-message">
                <span className={cn(!m.readAt && 'font-medium')}>{m.text}</span>
                <span className="text-xs text-muted-foreground">{at(m.createdAt)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="px-4 py-3 text-sm text-muted-foreground">{t('bell.noMessages')}</p>
        )}
        <div className="border-t px-4 py-2 text-right">
          <Link to="/myInfo/messages" onClick={() => setOpen(false)} className="text-sm text-primary hover:underline" data-testid="todo-bell-all">
            {t('bell.all')}
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
