import type { LastSignIn } from '@/domain/security/two-factor';
import { get } from '@/lib/api-client';
import { i18next } from '@/lib/i18n';
import { toast } from '@/lib/toast';

/**
 * After a sign-in, the one before it (docs/product-rules.md#sign-in-security): when, from which address and browser, so
 * a sign-in the person did not make stands out. Nothing on the first sign-in or when the call fails.
 */
export async function showLastSignIn(): Promise<void> {
  try {
    const last = await get<LastSignIn>('/api/busi/web/myInfo/security/lastSignIn');
    if (!last) return;
    await i18next.loadNamespaces('security');
    const at = new Date(last.at).toLocaleString(i18next.language.replace('_', '-'), { dateStyle: 'medium', timeStyle: 'short' });
    toast.info(i18next.t('security:lastSignIn.title'), {
      id: 'last-sign-in',
      duration: 8000,
      description: i18next.t('security:lastSignIn.text', { at, ip: last.ip ?? '—', browser: last.browser ?? '—' }),
    });
  } catch {
    // Only a notice: the sign-in itself succeeded.
  }
}
