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

/** Failures raise their message (docs/product-rules.md#calls); a 401 has already warned and redirected. */
function report(error: unknown, silent: boolean | undefined): void {
  if (silent) return;
  if (error instanceof ApiError && error.status === 401) return;
  // An export needing an approval: the shell's request dialog shows the message.
  if (alreadyShown(error)) return;
  if (error instanceof Error && error.message) toast.warning(error.message);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta?.silent) }),
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => report(error, mutation.meta?.silent) }),
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
