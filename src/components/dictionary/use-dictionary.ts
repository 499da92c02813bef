import { useMemo } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  codeLabel,
  dictionaryCodeIssue,
  entryLabel,
  isExtendable,
  platformEntries,
  type DictionaryAnswer,
  type DictionaryCode,
  type DictionaryEntry,
} from '@/domain/dictionaries/dictionaries';
import { toLocale } from '@/domain/i18n/language';
import { get } from '@/lib/api-client';

/**
 * The dictionaries every select of the console reads (docs/product-rules.md#dictionaries): a platform dictionary is
 * the domain's code list (no request); an extendable one is fetched once per organisation session and kept five
 * minutes (the dictionary screen refreshes it after a change), the platform entries standing in until it arrives.
 */
export const dictionaryKey = (code: DictionaryCode) => ['dictionary', code] as const;
const STALE_MS = 5 * 60_000;
const queryOf = (code: DictionaryCode) => ({
  queryKey: dictionaryKey(code),
  queryFn: () => get<DictionaryAnswer>(`/api/busi/web/dictionaries/${code}`),
  staleTime: STALE_MS,
  enabled: isExtendable(code),
});

export interface Dictionary {
  entries: readonly DictionaryEntry[];
  /** The organisation's entries have arrived (always true for a platform dictionary). */
  ready: boolean;
  /** Select options: the enabled entries, and `current` (a disabled entry the record still holds) marked as such. */
  options(current?: string | null): { value: string; label: string }[];
  /** A code's label in the present language; an unknown code as it is. */
  label(code: string): string;
}

function useEntries(code: DictionaryCode, answer: DictionaryAnswer | undefined): readonly DictionaryEntry[] {
  return useMemo(() => answer?.entries ?? platformEntries(code), [answer, code]);
}

export function useDictionary(code: DictionaryCode): Dictionary {
  const { t, i18n } = useTranslation('dictionaries');
  const query = useQuery(queryOf(code));
  const entries = useEntries(code, query.data);
  const locale = toLocale(i18n.language);
  return useMemo(
    () => ({
      entries,
      ready: !isExtendable(code) || query.isSuccess,
      options: (current) =>
        entries
          .filter((e) => e.enabled || e.code === current)
          .map((e) => ({ value: e.code, label: e.enabled ? entryLabel(e, locale, t) : t('disabledOption', { label: entryLabel(e, locale, t) }) })),
      label: (value) => codeLabel(entries, value, locale, t),
    }),
    [entries, code, query.isSuccess, locale, t],
  );
}

/**
 * A form's schema with the dictionary rule on its dictionary fields (`{ type: 'venueType' }`): the value is an enabled
 * entry of the organisation's dictionary, or the one the record was loaded with (`initial`), the rule the server
 * applies too (dictionaryCodeIssue). Until an extendable dictionary has arrived the server alone judges.
 */
export function useDictionarySchema<S extends z.ZodObject>(schema: S, fields: Readonly<Record<string, DictionaryCode>> | undefined, initial: Record<string, unknown>): S {
  const names = Object.keys(fields ?? {});
  const results = useQueries({ queries: names.map((name) => queryOf(fields![name])) });
  const answers = results.map((r) => r.data);
  const ready = results.map((r, i) => !isExtendable(fields![names[i]]) || r.isSuccess);
  const currents = names.map((name) => (typeof initial[name] === 'string' ? (initial[name] as string) : null));
  // The answers are new objects only when refetched; their identity, readiness and the loaded values decide the schema.
  const key = JSON.stringify([ready, currents]);
  return useMemo(() => {
    if (names.length === 0) return schema;
    return schema.superRefine((values: Record<string, unknown>, ctx) => {
      names.forEach((name, i) => {
        const value = values[name];
        if (!ready[i] || typeof value !== 'string' || value === '') return;
        const entries = answers[i]?.entries ?? platformEntries(fields![name]);
        const issue = dictionaryCodeIssue(entries, value, currents[i]);
        if (issue) ctx.addIssue({ code: 'custom', path: [name], message: issue });
      });
    }) as unknown as S;
  }, [schema, key, ...answers]);
}
