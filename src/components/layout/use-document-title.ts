import { useEffect } from 'react';

/** Sets the browser tab title (platform title or common:appName, docs/product-rules.md#branding). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
