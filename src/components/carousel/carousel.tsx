import { useEffect, useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface CarouselItem {
  id: string;
  title: string;
  /** Where a click goes (opens in a new tab); none: the slide is a picture only. */
  link: string | null;
  /** Image URL. */
  image: string;
}

export interface CarouselProps {
  items: readonly CarouselItem[];
  /** Milliseconds per slide; 0 stops the automatic turn. */
  interval?: number;
  /** Labels of the controls (the caller translates). */
  labels: { previous: string; next: string; slide: (index: number) => string };
  className?: string;
  'data-testid'?: string;
}

/**
 * Banner carousel (docs/product-rules.md#banners): one slide at a time in the given order, turning on its own unless
 * the pointer rests on it or it has focus, with previous/next buttons and one dot per slide. No dependencies, so the
 * login screen can show it without weight.
 */
export function Carousel({ items, interval = 5000, labels, className, 'data-testid': testId }: CarouselProps) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = items.length;
  const current = count === 0 ? 0 : index % count;
  useEffect(() => {
    if (count < 2 || paused || interval <= 0) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), interval);
    return () => clearInterval(timer);
  }, [count, paused, interval]);
  if (count === 0) return null;
  const go = (i: number) => setIndex((i + count) % count);
  return (
    <section
      aria-roledescription="carousel"
      data-testid={testId ?? 'carousel'}
      className={cn('group relative overflow-hidden', className)}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {items.map((item, i) => {
        const img = <img src={item.image} alt={item.title} className="size-full object-cover" draggable={false} />;
        return (
          <div
            key={item.id}
            role="group"
            aria-roledescription="slide"
            aria-label={labels.slide(i + 1)}
            aria-hidden={i !== current}
            data-testid="carousel-slide"
            data-active={i === current || undefined}
            className={cn('absolute inset-0 transition-opacity duration-500', i === current ? 'opacity-100' : 'pointer-events-none opacity-0')}
          >
            {item.link ? (
              <a href={item.link} target="_blank" rel="noopener noreferrer" tabIndex={i === current ? 0 : -1} className="block size-full">
                {img}
              </a>
            ) : (
              img
            )}
            <p className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/60 to-transparent px-5 pt-10 pb-8 text-base font-medium text-white">{item.title}</p>
          </div>
        );
      })}
      {count > 1 ? (
        <>
          <button
            type="button"
            onClick={() => go(current - 1)}
            aria-label={labels.previous}
            className="absolute top-1/2 left-3 flex size-9 -translate-y-1/2 items-center justify-center rounded-full bg-black/40 text-white opacity-80 transition-opacity hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-white"
          >
            <ChevronLeft aria-hidden className="size-5" />
          </button>
          <button
            type="button"
            onClick={() => go(current + 1)}
            aria-label={labels.next}
            className="absolute top-1/2 right-3 flex size-9 -translate-y-1/2 items-center justify-center rounded-full bg-black/40 text-white opacity-80 transition-opacity hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-white"
          >
            <ChevronRight aria-hidden className="size-5" />
          </button>
          <div className="absolute inset-x-0 bottom-3 flex justify-center gap-2">
            {items.map((item, i) => (
              <button
                key={item.id}
                type="button"
                onClick={() => go(i)}
                aria-label={labels.slide(i + 1)}
                aria-current={i === current || undefined}
                className={cn('h-2 rounded-full bg-white transition-all', i === current ? 'w-6 opacity-100' : 'w-2 opacity-60 hover:opacity-90')}
              />
            ))}
          </div>
        </>
      ) : null}
    </section>
  );
}
