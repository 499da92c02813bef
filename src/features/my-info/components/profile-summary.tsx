import { useAtomValue } from 'jotai';
import { Building2, Phone, ShieldCheck, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { UInfo } from '@/domain/auth/types';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { uinfoAtom } from '@/lib/store';

/** A term and its value; the icon sits in the term, so the group holds only dt and dd as a definition list needs. */
function Fact({ icon: Icon, label, value }: { icon: typeof UserRound; label: string; value: string }) {
  return (
    <div className="relative min-h-9 min-w-0 pl-12">
      <dt className="text-xs text-muted-foreground">
        <span className="absolute top-0 left-0 flex size-9 items-center justify-center rounded-lg bg-accent text-accent-foreground">
          <Icon aria-hidden className="size-4" />
        </span>
        {label}
      </dt>
      <dd className="truncate text-sm font-medium">{value}</dd>
    </div>
  );
}

/** Who is signed in and in which organisation and role. */
export function ProfileSummary({ uinfo: given }: { uinfo?: UInfo | null }) {
  const { t } = useTranslation('myInfo');
  const stored = useAtomValue(uinfoAtom);
  const uinfo = given ?? stored;
  if (!uinfo) return null;
  const account = uinfo.accounts.find((a) => a.presentFlag);
  const role = account?.roles.find((r) => r.presentFlag);
  const none = t('none');
  return (
    <Card data-testid="profile-summary" className="overflow-hidden py-0">
      <div className="h-20 bg-gradient-to-r from-[#0a5fae] via-[#0a6cc4] to-[#0f9f9a]" />
      <CardContent className="-mt-10 pb-6">
        <div className="flex flex-wrap items-end gap-4">
          <span
            aria-hidden
            className="flex size-20 items-center justify-center rounded-2xl border-4 border-card bg-primary text-3xl font-semibold text-primary-foreground shadow-md"
          >
            {[...(uinfo.userName.trim() || '?')][0].toUpperCase()}
          </span>
          <div className="min-w-0 pb-1">
            <h2 className="truncate text-xl font-semibold">{uinfo.userName}</h2>
            <div className="mt-1 flex flex-wrap gap-1.5">
              <Badge variant="secondary">{t(`gender.${uinfo.gender}`)}</Badge>
              {role && <Badge>{role.roleName}</Badge>}
            </div>
          </div>
        </div>
        <dl className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <Fact icon={UserRound} label={t('fields.account')} value={account?.accountNum || none} />
          <Fact icon={Phone} label={t('fields.mobile')} value={uinfo.mobile || none} />
          <Fact icon={Building2} label={t('fields.org')} value={account?.orgName || none} />
          <Fact icon={ShieldCheck} label={t('fields.role')} value={role?.roleName || none} />
        </dl>
      </CardContent>
    </Card>
  );
}
