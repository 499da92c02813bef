import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state/empty-state';
import { PageHeader } from '@/components/page-header/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { pagePath } from '../family';
import type { Family } from '@/domain/menus/access';
import { ResultEditor } from './result-editor';
import { useResultPermissions } from './results-screen';

/** physiqueManage/testResult/editUpReport?id=: one result's upload data, edited in place (docs/product-rules.md#physique-results: results screen). */
export function EditUpReportScreen({ family }: { family: Family }) {
  const { t } = useTranslation('physiqueResultsUi');
  const [search] = useSearchParams();
  const id = search.get('id');
  const can = useResultPermissions(family);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="edit-up-report">
      <PageHeader title={t('editor.title')} description={t('editor.description')} back={{ safe: true }} className="pb-0" />
      <Card>
        <CardContent className="min-w-0">
          {id ? (
            <ResultEditor family={family} id={id} editable={can.edit} canInvalid={can.invalid} canValid={can.valid} />
          ) : (
            <EmptyState
              title={t('editor.noResult')}
              action={
                <Button asChild variant="outline">
                  <Link to={pagePath(family, 'test.testResult')}>{t('editor.toResults')}</Link>
                </Button>
              }
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
