import { useEffect } from 'react';

/** Sets the browser tab title (platform title or common:appName, spec §1). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
