import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { useDocumentTitle } from '@/components/layout/use-document-title';
import { Button } from '@/components/ui/button';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';

/**
 * The frame of a step a session must take before anything else, outside the shell (/changePassword, /enrolTwoFactor):
 * the language and a way out (sign out) at the top, the step's title and why below, then the step itself.
 */
export function ForcedStep({ title, text, wide = false, children, 'data-testid': testId }: { title: string; text: string; wide?: boolean; children: ReactNode; 'data-testid': string }) {
  const { t } = useTranslation('myInfo');
  const signOut = useSignOut();
  useDocumentTitle(title);
  const width = wide ? 'max-w-3xl' : 'max-w-2xl';
  return (
    <div data-testid={testId} className="grid min-h-dvh content-start bg-muted/40">
      <div className="flex justify-end gap-2 p-4 sm:p-6">
        <LanguageSwitch variant="select" />
        <Button variant="outline" onClick={() => void signOut()} data-testid="forced-sign-out">
          {t('forced.signOut')}
        </Button>
      </div>
      <main className="grid justify-items-center gap-4 px-5 pb-10">
        <div className={`w-full ${width}`}>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <p role="status" className="mt-1.5 text-sm text-muted-foreground">
            {text}
          </p>
        </div>
        <div className={`w-full ${width}`}>{children}</div>
      </main>
    </div>
  );
}
