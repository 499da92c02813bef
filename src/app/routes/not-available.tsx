import { Construction } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { CatalogEntry } from '@/domain/menus/catalog';
import { menuLabel } from '@/components/layout/menu-label';
import { EmptyState } from '@/components/empty-state/empty-state';
import { PageHeader } from '@/components/page-header/page-header';
import { PermissionGate } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

/** A catalogue screen no feature implements yet: says so honestly, naming the screen. */
export function NotAvailable({ entry }: { entry: CatalogEntry }) {
  const { t } = useTranslation(['pages', 'menus']);
  const name = menuLabel(t, entry);
  return (
    <div data-testid="not-available" data-screen={entry.key}>
      <PageHeader title={name} back={entry.kind === 'route' ? { safe: true } : undefined} />
      <Card>
        <CardContent>
          <EmptyState
            icon={<Construction aria-hidden className="size-10 text-warning" strokeWidth={1.5} />}
            title={t('pages:notAvailable.title', { name })}
            description={t('pages:notAvailable.description')}
          />
          {entry.buttons.length > 0 && (
            <div className="flex flex-wrap justify-center gap-2 border-t pt-4" aria-label={t('pages:notAvailable.actions')}>
              {entry.buttons.map((b) => (
                // Buttons the role lacks are not rendered (docs/product-rules.md#menus-and-permissions).
                <PermissionGate key={b.permission} permission={b.permission}>
                  <Button variant="outline" size="sm" disabled data-permission={b.permission}>
                    {t(`menus:${b.i18nKey}`, { defaultValue: b.name })}
                  </Button>
                </PermissionGate>
              ))}
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
