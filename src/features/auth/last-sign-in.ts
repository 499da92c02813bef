import type { LastSignIn } from '@/domain/security/two-factor';
import { get } from '@/lib/api-client';
import { i18next } from '@/lib/i18n';
import { toast } from '@/lib/toast';

/**
 * Shows the last sign-in once the page opened after this one has drawn (the browser idle, at the latest 3 s on): its
 * call and the first formatting of a date (≈ 30 ms) stay off the first load (docs/performance.md).
 */
export function showLastSignInSoon(): void {
  const show = () => void showLastSignIn();
  if (typeof requestIdleCallback === 'function') requestIdleCallback(show, { timeout: 3000 });
  else setTimeout(show, 1000);
}

/**
 * After a sign-in, the one before it (docs/product-rules.md#sign-in-security): when, from which address and browser, so
 * a sign-in the person did not make stands out. Nothing on the first sign-in or when the call fails.
 */
async function showLastSignIn(): Promise<void> {
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
