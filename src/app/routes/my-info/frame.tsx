import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { LogIn } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state/empty-state';
import { PageHeader } from '@/components/page-header/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { uinfoAtom } from '@/lib/store';
import { MyInfoNav } from '@/features/my-info/components/my-info-nav';

/** The personal centre's frame: title, section links, and a sign-in prompt without a session. */
export function MyInfoFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('myInfo');
  const uinfo = useAtomValue(uinfoAtom);
  return (
    <div data-testid="my-info" className="grid gap-5">
      <PageHeader title={t('title')} description={t('description')} className="pb-0" />
      <MyInfoNav />
      {uinfo ? (
        children
      ) : (
        <Card>
          <EmptyState
            title={t('signedOut.title')}
            description={t('signedOut.description')}
            action={
              <Button asChild>
                <Link to="/?rt=%2FmyInfo%2Fbase">
                  <LogIn aria-hidden />
                  {t('signedOut.action')}
                </Link>
              </Button>
            }
          />
        </Card>
      )}
    </div>
  );
}
