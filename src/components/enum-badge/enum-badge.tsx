import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { enumEntry, type EnumTable, type Tone } from '@/domain/presentation';
import { Badge, type BadgeProps } from '@/components/ui/badge';

/** The Badge variant of each tone (src/domain/presentation.ts). */
export const TONE_VARIANT: Record<Tone, NonNullable<BadgeProps['variant']>> = {
  primary: 'default',
  neutral: 'secondary',
  success: 'success',
  warning: 'warning',
  danger: 'destructive',
  plain: 'outline',
};

export interface EnumBadgeProps extends Omit<ComponentProps<'span'>, 'children'> {
  table: EnumTable;
  value: string;
}

/** A value of a domain enum as a badge: its label and its tone's colour; an unknown value shows as it is, plain. */
export function EnumBadge({ table, value, ...props }: EnumBadgeProps) {
  const { t } = useTranslation();
  const entry = enumEntry(table, value);
  return (
    <Badge variant={TONE_VARIANT[entry?.tone ?? 'plain']} {...props}>
      {entry ? t(entry.labelKey) : value}
    </Badge>
  );
}
