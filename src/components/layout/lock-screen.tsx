import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAtom } from 'jotai';
import { LockKeyhole, LogOut } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { lockedAtom } from '@/lib/store';
import { sha256 } from '@/lib/sha256';
import { initialOf } from './user-menu';

/** How often the idle timer looks at the clock (a sleeping browser tab fires timers late; the clock tells the truth). */
const IDLE_CHECK_MS = 10_000;
const ACTIVITY = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/** Alt + L locks; so does `idleMinutes` without a key or pointer (0: never). */
export function useLockTriggers(idleMinutes: number): void {
  const [locked, setLocked] = useAtom(lockedAtom);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // `code`, not `key`: Option + L types "¬" on a Mac.
      if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyL') {
        e.preventDefault();
        setLocked(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setLocked]);

  useEffect(() => {
    if (!idleMinutes || locked) return;
    let last = Date.now();
    const seen = () => {
      last = Date.now();
    };
    for (const type of ACTIVITY) window.addEventListener(type, seen, { passive: true, capture: true });
    const timer = window.setInterval(() => {
      if (Date.now() - last >= idleMinutes * 60_000) setLocked(true);
    }, Math.min(IDLE_CHECK_MS, idleMinutes * 60_000));
    return () => {
      window.clearInterval(timer);
      for (const type of ACTIVITY) window.removeEventListener(type, seen, { capture: true });
    };
  }, [idleMinutes, locked, setLocked]);
}

export interface LockScreenProps {
  userName: string;
  onSignOut(): void;
}

/**
 * The lock screen (docs/product-rules.md#lock-screen): an opaque modal over the whole console (nothing behind it is
 * visible or reachable: Radix traps focus, the shell below is inert) until the signed-in account's password is typed
 * again; the server checks it and counts wrong ones. The session stays; a reload stays locked (lockedAtom is stored).
 */
export function LockScreen({ userName, onSignOut }: LockScreenProps) {
  const { t } = useTranslation(['auth', 'layout']);
  const [locked, setLocked] = useAtom(lockedAtom);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) {
      setError(t('auth:lock.passwordRequired'));
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const { post } = await import('@/lib/api-client');
      await post('/api/busi/web/shell/unlock', { password: sha256(password) });
      setPassword('');
      setError(null);
      setLocked(false);
    } catch (err) {
      // A 401 (too many wrong passwords) has already signed out and gone to the login screen.
      setError(err instanceof Error ? err.message : String(err));
      setPassword('');
      inputRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogPrimitive.Root open={locked}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          data-testid="lock-screen"
          aria-describedby="lock-screen-description"
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            inputRef.current?.focus();
          }}
          className="fixed inset-0 z-[100] flex items-center justify-center bg-background p-4 outline-none"
        >
          <form onSubmit={(e) => void submit(e)} className="flex w-full max-w-sm flex-col items-center gap-4 rounded-xl border bg-card p-8 text-card-foreground shadow-lg" noValidate>
            <span aria-hidden className="flex size-16 items-center justify-center rounded-full bg-primary text-2xl font-semibold text-primary-foreground">
              {initialOf(userName)}
            </span>
            <DialogPrimitive.Title className="flex items-center gap-2 text-lg font-semibold">
              <LockKeyhole aria-hidden className="size-5" />
              {t('auth:lock.title')}
            </DialogPrimitive.Title>
            <DialogPrimitive.Description id="lock-screen-description" className="text-center text-sm text-muted-foreground">
              {t('auth:lock.description', { name: userName })}
            </DialogPrimitive.Description>
            <div className="grid w-full gap-1.5">
              <Label htmlFor="lock-password">{t('auth:lock.password')}</Label>
              <Input
                ref={inputRef}
                id="lock-password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => {
                  setPassword(e.target.value);
                  setError(null);
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'lock-password-error' : undefined}
                data-testid="lock-password"
              />
              {error ? (
                <p id="lock-password-error" role="alert" className="text-sm text-destructive" data-testid="lock-error">
                  {error}
                </p>
              ) : null}
            </div>
            <Button type="submit" className="w-full" disabled={busy} data-testid="lock-unlock">
              {t('auth:lock.unlock')}
            </Button>
            <Button type="button" variant="ghost" size="sm" onClick={onSignOut} data-testid="lock-sign-out">
              <LogOut aria-hidden />
              {t('auth:lock.signOut')}
            </Button>
          </form>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
