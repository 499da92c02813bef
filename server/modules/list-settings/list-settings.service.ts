import { and, count, desc, eq } from 'drizzle-orm';
import { LIST_SETTINGS_MAX_PER_USER, readListSettings, type ListSettings, type ListSettingsEntry } from '@/domain/list-settings/list-settings';
import type { DbOrTx } from '../../db/client';
import { listSettings } from '../../db/schema/list-settings';
import { AppError } from '../../lib/app-error';

/** Every list's settings of one user (the browser loads them once per session). Stored JSON is read leniently. */
export async function settingsOf(db: DbOrTx, userId: string): Promise<ListSettingsEntry[]> {
  const rows = await db.select().from(listSettings).where(eq(listSettings.userId, userId)).orderBy(desc(listSettings.updatedAt)).limit(LIST_SETTINGS_MAX_PER_USER);
  return rows.map((r) => ({ listKey: r.listKey, settings: readListSettings(r.settings), updatedAt: r.updatedAt.toISOString() }));
}

/** Saves one list's settings of the user (the last save wins: they are the user's own, from one browser at a time). */
export async function saveSettings(tx: DbOrTx, userId: string, listKey: string, settings: ListSettings, now: Date): Promise<ListSettingsEntry> {
  const [existing] = await tx.select({ listKey: listSettings.listKey }).from(listSettings).where(and(eq(listSettings.userId, userId), eq(listSettings.listKey, listKey)));
  if (!existing) {
    const [{ n }] = await tx.select({ n: count() }).from(listSettings).where(eq(listSettings.userId, userId));
    if (n >= LIST_SETTINGS_MAX_PER_USER) throw new AppError(400, 'listSettings:errors.tooManyLists', { max: LIST_SETTINGS_MAX_PER_USER });
  }
  await tx
    .insert(listSettings)
    .values({ userId, listKey, settings, updatedAt: now })
    .onConflictDoUpdate({ target: [listSettings.userId, listSettings.listKey], set: { settings, updatedAt: now } });
  return { listKey, settings, updatedAt: now.toISOString() };
}

/** Back to the list's defaults: the row goes. */
export async function resetSettings(tx: DbOrTx, userId: string, listKey: string): Promise<void> {
  await tx.delete(listSettings).where(and(eq(listSettings.userId, userId), eq(listSettings.listKey, listKey)));
}
