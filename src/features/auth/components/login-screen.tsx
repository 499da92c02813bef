import { useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { BrandMark } from '@/components/layout/brand-mark';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { useDocumentTitle } from '@/components/layout/use-document-title';
import { useMourning } from '@/components/layout/use-mourning';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toast';
import { ApiError } from '@/lib/api-error';
import { clearAuth } from '@/lib/store';
import { useLoginCarousel } from '../api/get-carousel';
import { useSimpleInfoQuery } from '../api/get-simple-info';
import { hasTokenAtom } from '../atoms';
import { safeRedirect } from '../redirect';
import { LoginArt } from './login-art';
import { LoginForm } from './login-form';

const FILING_URL = 'https://beian.miit.gov.cn/';

/**
 * Route '/': the login screen with automatic login (docs/product-rules.md#sign-in, #screens-and-routes).
 * `onSigningIn` is called with the page to return to (rt) as a sign-in starts, by password or by a stored token, so
 * the app can load the signed-in screens beside the sign-in's calls (docs/decisions/012-lean-first-screen.md).
 */
export function LoginScreen({ onSigningIn }: { onSigningIn?(redirectTo: string | null): void } = {}) {
  const { t } = useTranslation(['auth', 'common']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const rt = safeRedirect(params.get('rt'));
  const queryToken = params.get('token');
  const hasToken = useAtomValue(hasTokenAtom);
  const { data: info } = useSimpleInfoQuery(params.get('orgId'));
  const { data: slides } = useLoginCarousel(params.get('orgId'));
  const title = info?.platformName || t('common:appName');
  useDocumentTitle(title);
  // Grey on mourning days, as the console is (docs/product-rules.md#mourning-mode).
  useMourning();

  // A token in the query or in storage: try it before showing the form (docs/product-rules.md#sign-in).
  const [authenticating, setAuthenticating] = useState(() => Boolean(queryToken || hasToken));
  const started = useRef(false);
  useEffect(() => {
    if (!authenticating || started.current) return;
    started.current = true;
    onSigningIn?.(rt);
    import('../sign-in')
      .then((m) => m.signInWithToken(queryToken, rt))
      .then(
        (path) => {
          if (path) navigate(path, { replace: true });
          else setAuthenticating(false);
        },
        (error: unknown) => {
          clearAuth();
          // A 401 has already said the session expired.
          if (!(error instanceof ApiError && error.status === 401)) toast.warning(error instanceof Error ? error.message : String(error));
          setAuthenticating(false);
          // A refused token should not stay in the address bar.
          if (queryToken) navigate(rt ? `/?rt=${encodeURIComponent(rt)}` : '/', { replace: true });
        },
      );
  }, [authenticating, queryToken, rt, navigate, onSigningIn]);

  return (
    <div data-testid="login-screen" className="grid min-h-dvh bg-background lg:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)]">
      <LoginArt image={info?.loginImg} slides={slides} />
      <section className="flex min-h-dvh flex-col">
        <div className="flex justify-end p-4 sm:p-6">
          <LanguageSwitch variant="select" />
        </div>
        <div className="flex flex-1 items-center justify-center px-5 pb-8">
          <div className="w-full max-w-[380px]">
            <div className="mb-8 flex items-center gap-3">
              <BrandMark icon={info?.icon} name={title} className="size-11 rounded-xl" />
              <h1 data-testid="login-title" className="text-xl font-semibold tracking-tight">
                {title}
              </h1>
            </div>
            {authenticating ? (
              <div data-testid="login-authenticating" className="flex flex-col items-center gap-3 rounded-xl border bg-card px-6 py-12 text-muted-foreground shadow-sm">
                <Spinner className="text-2xl text-primary" label={t('auth:login.authenticating')} />
                <p className="text-sm">{t('auth:login.authenticating')}</p>
              </div>
            ) : (
              <>
                <div className="mb-6">
                  <h2 className="text-2xl font-semibold tracking-tight">{t('auth:login.welcome')}</h2>
                  <p className="mt-1.5 text-sm text-muted-foreground">{t('auth:login.subtitle')}</p>
                </div>
                <LoginForm redirectTo={rt} onSigningIn={() => onSigningIn?.(rt)} onSignedIn={(path) => navigate(path, { replace: true })} />
              </>
            )}
          </div>
        </div>
        <footer className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 px-4 pb-5 text-xs text-muted-foreground">
          <span>{t('auth:login.copyright', { year: new Date().getFullYear(), name: title })}</span>
          {info?.filingNumber ? (
            <a href={FILING_URL} target="_blank" rel="noreferrer noopener" data-testid="login-filing" className="hover:text-foreground hover:underline">
              {info.filingNumber}
            </a>
          ) : null}
        </footer>
      </section>
    </div>
  );
}
