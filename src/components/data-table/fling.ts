import { observeElementOffset, type Virtualizer } from '@tanstack/react-virtual';

/**
 * Tells a virtual table when it is being flung: two scroll steps in a row, each longer than half the view (a scrollbar
 * drag through 100,000 rows, a hard fling, a fast spin of the wheel). No one reads rows that pass at half a screen a
 * frame (hundreds of rows a second), yet drawing that many new rows costs a whole frame of style, layout, text shaping
 * and raster, which on a modest machine misses frames; so while flinging the table shows placeholder rows and draws the
 * real ones as soon as the scroll slows below that or stops. A single long jump (Ctrl+End, Page Down, a click on the
 * scrollbar track) still draws its rows at once.
 */
export class FlingTracker {
  /** Read by the table's render: true while the last two scroll steps were each longer than half the view. */
  flinging = false;
  private offset = 0;
  private longStep = false;
  private drawnFrom = 0;

  /** The first row to render: the first in view, or while flinging the first drawn last (rows kept as they were). */
  firstRowToDraw(firstInView: number): number {
    if (!this.flinging) this.drawnFrom = firstInView;
    return this.drawnFrom;
  }

  /** The virtualizer's `observeElementOffset`: updates `flinging` before the virtualizer re-renders the table. */
  readonly observe = (instance: Virtualizer<HTMLDivElement, Element>, notify: (offset: number, isScrolling: boolean) => void) =>
    observeElementOffset(instance, (offset, isScrolling) => {
      if (!isScrolling) {
        // The scroll has settled (no scroll event for the virtualizer's reset delay): draw the real rows.
        this.longStep = false;
        this.flinging = false;
      } else {
        const view = instance.scrollRect?.height ?? 0;
        const longStep = view > 0 && Math.abs(offset - this.offset) > view / 2;
        this.flinging = longStep && this.longStep;
        this.longStep = longStep;
      }
      this.offset = offset;
      notify(offset, isScrolling);
    });
}
