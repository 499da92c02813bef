import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HeartPulse } from 'lucide-react';
import { Chart } from '@/components/chart/chart';
import { PermissionGate, usePageAccess } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { loadKey, useLoadCard, type SummaryFamily } from './api';
import { weeklyTrendOption } from './format';
import { FigureTiles } from './summary-screen';
import { termText } from './term-filter';

/**
 * The lesson-load card of the data centre's school, grade and class views (docs/product-rules.md#lesson-load:
 * reports): this term's lessons measured, share meeting the targets, densities and the weekly trend of the scope.
 * A school's own roles get a link to the load summary.
 */
export function LessonLoadCard({ family, orgId, gradeNo, classId }: { family: SummaryFamily | 'admin'; orgId?: string; gradeNo?: number; classId?: string }) {
  const { t } = useTranslation('lessonLoad');
  const query = useLoadCard(family, { orgId, gradeNo, classId });
  const card = query.data;
  const trend = useMemo(() => (card && card.weeks.length > 1 ? weeklyTrendOption(t, card.weeks, true) : null), [card, t]);
  const summary = usePageAccess(loadKey(family === 'admin' ? 'k12' : family));
  if (!card) return null;
  return (
    <Card className="min-w-0 gap-3 py-4" data-testid="lesson-load-card">
      <CardHeader className="px-4">
        <CardTitle className="flex items-center gap-2 text-base">
          <HeartPulse aria-hidden className="size-4 text-destructive" />
          {t('summary.cardTitle')}
        </CardTitle>
        <CardDescription>{t('summary.cardDescription', termText(t, card.term))}</CardDescription>
        {family !== 'admin' ? (
          <PermissionGate permission={summary.view}>
            <CardAction>
              <Button asChild variant="outline" size="sm">
                <Link to={summary.paths.route('summary', '')}>{t('summary.open')}</Link>
              </Button>
            </CardAction>
          </PermissionGate>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3 px-4">
        <FigureTiles figures={card.total} testId="lesson-load-figures" />
        {trend ? <Chart option={trend} height={220} aria-label={t('summary.trendTitle')} /> : null}
      </CardContent>
    </Card>
  );
}
