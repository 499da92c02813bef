const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe inside HTML. An ECharts tooltip `formatter` function returns HTML, so every name in it (a class, a
 * school, a plan: typed by users) goes through this; ECharts' own markers (`p.marker`) are HTML and stay as they are.
 */
export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
