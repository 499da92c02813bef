import type { TFunction } from 'i18next';
import type { TodoItem } from '@/domain/messages/messages';

/** A to-do's label: its kind, with the record it belongs to when one kind comes per record (a meet's sign-ups). */
export function todoLabel(t: TFunction<'messages'>, item: TodoItem): string {
  const label = t(`todo.kind.${item.kind}`);
  return item.subject ? t('todo.subject', { subject: item.subject, label }) : label;
}
