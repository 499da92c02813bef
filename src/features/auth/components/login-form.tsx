import { useState } from 'react';
import { Eye, EyeOff, KeyRound, ShieldCheck, UserRound } from 'lucide-react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod/mini';
import type { loginFormSchema } from '@/domain/auth/login-form';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { clearAuth, saveToken } from '@/lib/store';
import { sha256 } from '@/lib/sha256';
import { login } from '../api/login';
import { newRandomStr } from '../captcha';
import { completeSignIn } from '../session';
import { CaptchaImage } from './captcha-image';

type LoginInput = z.input<typeof loginFormSchema>;
type LoginOutput = z.output<typeof loginFormSchema>;

export interface LoginFormProps {
  /** Called with the path to open once signed in (spec §4). */
  onSignedIn(path: string): void;
  /** rt: the page to return to after login. */
  redirectTo?: string | null;
}

// The form's rules (zod) load on the first focus or submit, not with the first screen (docs/architecture.md, performance).
let loadingResolver: Promise<Resolver<LoginInput, unknown, LoginOutput>> | null = null;
function loadResolver() {
  loadingResolver ??= Promise.all([import('@hookform/resolvers/zod'), import('@/domain/auth/login-form')]).then(([{ zodResolver }, { loginFormSchema }]) =>
    zodResolver(loginFormSchema),
  );
  // A failed chunk load is tried again on the next submit.
  loadingResolver.catch(() => (loadingResolver = null));
  return loadingResolver;
}
const resolver: Resolver<LoginInput, unknown, LoginOutput> = async (...args) => (await loadResolver())(...args);

const iconClass = 'pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground';

/** Username (account or mobile), password, image captcha (spec §2, §5). */
export function LoginForm({ onSignedIn, redirectTo }: LoginFormProps) {
  const { t } = useTranslation('auth');
  const [randomStr, setRandomStr] = useState(newRandomStr);
  const [showPassword, setShowPassword] = useState(false);
  const form = useForm<LoginInput, unknown, LoginOutput>({
    resolver,
    defaultValues: { accountNum: '', password: '', code: '' },
  });

  const refreshCaptcha = () => setRandomStr(newRandomStr());

  const submit = async (values: LoginOutput) => {
    try {
      const token = await login({
        accountNum: values.accountNum,
        password: sha256(values.password),
        code: values.code,
        randomStr,
      });
      saveToken(token);
      const path = await completeSignIn(redirectTo);
      if (path) {
        onSignedIn(path);
        return;
      }
    } catch (error) {
      // A token from a half-finished sign-in must not linger.
      clearAuth();
      toast.warning(error instanceof Error ? error.message : String(error));
    }
    // After any failed login the captcha is cleared and reloaded (spec §5).
    form.setValue('code', '');
    refreshCaptcha();
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(submit)} onFocus={() => void loadResolver()} noValidate data-testid="login-form" className="grid gap-5">
        <FormField
          control={form.control}
          name="accountNum"
          render={({ field }) => (
            <FormItem>
              <FormLabel required>{t('login.username')}</FormLabel>
              <div className="relative">
                <UserRound aria-hidden className={iconClass} />
                <FormControl>
                  <Input
                    {...field}
                    data-testid="login-username"
                    autoComplete="username"
                    autoFocus
                    placeholder={t('login.usernamePlaceholder')}
                    className="h-10 pl-9"
                  />
                </FormControl>
              </div>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="password"
          render={({ field }) => (
            <FormItem>
              <FormLabel required>{t('login.password')}</FormLabel>
              <div className="relative">
                <KeyRound aria-hidden className={iconClass} />
                <FormControl>
                  <Input
                    {...field}
                    type={showPassword ? 'text' : 'password'}
                    data-testid="login-password"
                    autoComplete="current-password"
                    placeholder={t('login.passwordPlaceholder')}
                    className="h-10 pr-10 pl-9"
                  />
                </FormControl>
                <button
                  type="button"
                  onClick={() => setShowPassword((v) => !v)}
                  aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                  aria-pressed={showPassword}
                  className="absolute top-1/2 right-1.5 flex size-7 -translate-y-1/2 items-center justify-center rounded text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {showPassword ? <EyeOff aria-hidden className="size-4" /> : <Eye aria-hidden className="size-4" />}
                </button>
              </div>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="code"
          render={({ field }) => (
            <FormItem>
              <FormLabel required>{t('login.code')}</FormLabel>
              <div className="flex gap-2">
                <div className="relative flex-1">
                  <ShieldCheck aria-hidden className={iconClass} />
                  <FormControl>
                    <Input
                      {...field}
                      data-testid="login-code"
                      autoComplete="off"
                      inputMode="text"
                      maxLength={8}
                      placeholder={t('login.codePlaceholder')}
                      className="h-10 pl-9"
                    />
                  </FormControl>
                </div>
                <CaptchaImage randomStr={randomStr} onRefresh={refreshCaptcha} />
              </div>
              <FormMessage />
            </FormItem>
          )}
        />
        <Button type="submit" size="lg" className="mt-1 w-full" loading={form.formState.isSubmitting} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </form>
    </Form>
  );
}
