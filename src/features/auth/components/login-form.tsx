import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Eye, EyeOff, KeyRound, ShieldCheck, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod/mini';
import type { loginFormSchema } from '@/domain/auth/login-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/lib/toast';
import { clearAuth } from '@/lib/store';
import { newRandomStr } from '../captcha';
import { CaptchaImage } from './captcha-image';
import { TotpStep } from './totp-step';

type LoginValues = z.input<typeof loginFormSchema>;
type Field = keyof LoginValues;
/** An i18n key per refused field (the schema's messages). */
type Errors = Partial<Record<Field, string>>;
const FIELDS: Field[] = ['accountNum', 'password', 'code'];

export interface LoginFormProps {
  /** Called with the path to open once signed in (docs/product-rules.md#sign-in). */
  onSignedIn(path: string): void;
  /** Called as a sign-in is sent (the values passed the schema), to start loading what follows it. */
  onSigningIn?(): void;
  /** rt: the page to return to after login. */
  redirectTo?: string | null;
}

// Three fields need no form library: the state is kept here and checked with the domain schema (zod/mini), which loads
// on the first typing or submit, not with the first screen (docs/decisions/012-lean-first-screen.md). Not on the first
// focus: the account field is autofocused, so that loaded it with the page. The sign-in code (the API client's calls,
// the session) loads on the first typing too, so the click on "sign in" sends the request at once.
let loadingSchema: Promise<typeof loginFormSchema> | null = null;
function loadSchema() {
  loadingSchema ??= import('@/domain/auth/login-form').then((m) => m.loginFormSchema);
  // A failed chunk load is tried again on the next submit.
  loadingSchema.catch(() => (loadingSchema = null));
  return loadingSchema;
}
let loadingSignIn: Promise<typeof import('../sign-in')> | null = null;
function loadSignIn() {
  loadingSignIn ??= import('../sign-in');
  loadingSignIn.catch(() => (loadingSignIn = null));
  return loadingSignIn;
}

async function validate(values: LoginValues): Promise<{ data?: z.output<typeof loginFormSchema>; errors: Errors }> {
  const result = (await loadSchema()).safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return { errors };
}

const iconClass = 'pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground';

/** Label, control and translated message of one field, wired for assistive technology like the kit's FormField. */
function LoginField({ label, error, children }: { label: string; error?: string; children(control: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }): ReactNode }) {
  const { t } = useTranslation();
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div data-slot="form-item" className="grid gap-2">
      <Label htmlFor={id} data-error={!!error} className="data-[error=true]:text-destructive">
        <span aria-hidden className="-mr-1 text-destructive">
          *
        </span>
        {label}
      </Label>
      {children({ id, 'aria-invalid': !!error, 'aria-describedby': error ? messageId : undefined })}
      {error ? (
        <p data-slot="form-message" id={messageId} role="alert" className="text-sm text-destructive">
          {t(error, { defaultValue: error })}
        </p>
      ) : null}
    </div>
  );
}

/** Username (account or mobile), password, image captcha (docs/product-rules.md#sign-in). */
export function LoginForm({ onSignedIn, onSigningIn, redirectTo }: LoginFormProps) {
  const { t } = useTranslation('auth');
  const [randomStr, setRandomStr] = useState(newRandomStr);
  const [showPassword, setShowPassword] = useState(false);
  const [values, setValues] = useState<LoginValues>({ accountNum: '', password: '', code: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  /** The code step of a two-factor sign-in (docs/product-rules.md#sign-in-security), once the password was right. */
  const [challenge, setChallenge] = useState<string | null>(null);

  const refreshCaptcha = () => setRandomStr(newRandomStr());

  const change = (field: Field) => (event: { target: { value: string } }) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    // After the first submit, the messages follow the typing (as react-hook-form's default did).
    if (submitted) void validate(next).then((r) => setErrors(r.errors));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (submitting) return;
    setSubmitted(true);
    setSubmitting(true);
    try {
      const { data, errors: found } = await validate(values);
      setErrors(found);
      if (!data) {
        // The first refused field takes the focus, so its message is read out.
        const first = FIELDS.find((f) => found[f]);
        form.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
        return;
      }
      try {
        const { signInWithPassword } = await loadSignIn();
        const signingIn = signInWithPassword(data, randomStr, redirectTo);
        // What the signed-in pages need starts loading a task later, once the sign-in's request is sent: over HTTP/1.1
        // a browser opens six connections to a host, and the request waited behind the pages' dozens of files.
        if (onSigningIn) setTimeout(onSigningIn, 0);
        const path = await signingIn;
        if (path && typeof path === 'object') {
          setChallenge(path.totpChallenge);
          setValues((v) => ({ ...v, password: '', code: '' }));
          return;
        }
        if (path) {
          onSignedIn(path);
          return;
        }
      } catch (error) {
        // A token from a half-finished sign-in must not linger.
        clearAuth();
        toast.warning(error instanceof Error ? error.message : String(error));
      }
      // After any failed login the captcha is cleared and reloaded (docs/product-rules.md#sign-in).
      setValues((v) => ({ ...v, code: '' }));
      refreshCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  if (challenge) {
    return (
      <TotpStep
        challenge={challenge}
        redirectTo={redirectTo}
        onSignedIn={onSignedIn}
        onBack={() => {
          setChallenge(null);
          refreshCaptcha();
        }}
      />
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} onInput={() => void Promise.all([loadSchema(), loadSignIn()]).catch(() => undefined)} noValidate data-testid="login-form" className="grid gap-5">
      <LoginField label={t('login.username')} error={errors.accountNum}>
        {(control) => (
          <div className="relative">
            <UserRound aria-hidden className={iconClass} />
            <Input
              {...control}
              name="accountNum"
              value={values.accountNum}
              onChange={change('accountNum')}
              data-testid="login-username"
              autoComplete="username"
              autoFocus
              placeholder={t('login.usernamePlaceholder')}
              className="h-10 pl-9"
            />
          </div>
        )}
      </LoginField>
      <LoginField label={t('login.password')} error={errors.password}>
        {(control) => (
          <div className="relative">
            <KeyRound aria-hidden className={iconClass} />
            <Input
              {...control}
              name="password"
              value={values.password}
              onChange={change('password')}
              type={showPassword ? 'text' : 'password'}
              data-testid="login-password"
              autoComplete="current-password"
              placeholder={t('login.passwordPlaceholder')}
              className="h-10 pr-10 pl-9"
            />
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
        )}
      </LoginField>
      <LoginField label={t('login.code')} error={errors.code}>
        {(control) => (
          <div className="flex gap-2">
            <div className="relative flex-1">
              <ShieldCheck aria-hidden className={iconClass} />
              <Input
                {...control}
                name="code"
                value={values.code}
                onChange={change('code')}
                data-testid="login-code"
                autoComplete="off"
                inputMode="text"
                maxLength={8}
                placeholder={t('login.codePlaceholder')}
                className="h-10 pl-9"
              />
            </div>
            <CaptchaImage randomStr={randomStr} onRefresh={refreshCaptcha} />
          </div>
        )}
      </LoginField>
      <Button type="submit" size="lg" className="mt-1 w-full" loading={submitting} data-testid="login-submit">
        {t('login.submit')}
      </Button>
    </form>
  );
}
