import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { ApiError, alreadyShown } from '@/lib/api-error';

declare module '@tanstack/react-query' {
  interface Register {
    // `meta.silent`: the caller shows the failure itself (e.g. login, which also reloads the captcha).
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/**
 * Shows a failed call's message (docs/product-rules.md#calls), unless it was shown already: a 401 has warned and
 * redirected, an export needing an approval opens the shell's request dialog. Queries and mutations report through it;
 * a caller of a plain call (a download, an export) hands its failure here too.
 */
export function showFailure(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) return;
  if (alreadyShown(error)) return;
  if (error instanceof Error && error.message) toast.warning(error.message);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => query.meta?.silent || showFailure(error) }),
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => mutation.meta?.silent || showFailure(error) }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Retrying a refused or unauthorised call only repeats the same answer.
        retry: (count, error) => count < 2 && error instanceof ApiError && error.code === 'network',
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
