import { Fragment } from 'react';
import { ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export interface DrillCrumb {
  label: string;
  /** Path with query; the last crumb (here) has none. */
  to?: string;
}

/** The drill-down trail (school → grade → class → student): each step links back up with the same period. */
export function DrillBreadcrumbs({ items }: { items: readonly DrillCrumb[] }) {
  const { t } = useTranslation('dashboard');
  return (
    <nav aria-label={t('drill.label')} data-testid="drill-breadcrumbs" className="mb-3 flex flex-wrap items-center gap-1 text-sm">
      {items.map((item, i) => (
        <Fragment key={`${i}-${item.label}`}>
          {i > 0 ? <ChevronRight aria-hidden className="size-4 text-muted-foreground" /> : null}
          {item.to ? (
            <Link to={item.to} className="rounded-sm text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
              {item.label}
            </Link>
          ) : (
            <span aria-current="page" className="font-medium text-foreground">
              {item.label}
            </span>
          )}
        </Fragment>
      ))}
    </nav>
  );
}
