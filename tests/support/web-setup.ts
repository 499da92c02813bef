// Setup of the vitest 'web' project (jsdom): matchers, the app's i18n in zh_cn with every namespace loaded (so
// components render translated at once outside the app's loading boundaries), cleanup, and the few browser APIs
// jsdom lacks that Radix primitives call.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { i18next, loadAllNamespaces } from '@/lib/i18n';

// Screens, their locales and their form rules load on first use (code splitting), and compiling them on this shared
// 2-core machine can take over the default second: findBy* waits longer before it gives up.
configure({ asyncUtilTimeout: 5000 });

beforeAll(async () => {
  await i18next.changeLanguage('zh_cn');
  await loadAllNamespaces();
  // The form rules (zod) used to come with the first screen; now each screen loads them, and a test's wait for its
  // first screen should not include compiling zod.
  await import('zod');
});

afterEach(() => {
  cleanup();
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', { value: ResizeObserverStub, writable: true, configurable: true });
}

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: vi.fn((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(() => false),
    })),
  });
}

// Radix Select and menus scroll the active option into view and capture the pointer.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= function hasPointerCapture() {
  return false;
};
Element.prototype.setPointerCapture ??= function setPointerCapture() {};
Element.prototype.releasePointerCapture ??= function releasePointerCapture() {};

// Floating UI measures with DOMRect; jsdom has it in recent versions, older ones do not.
if (typeof globalThis.DOMRect === 'undefined') {
  class DOMRectStub {
    x: number;
    y: number;
    width: number;
    height: number;
    constructor(x = 0, y = 0, width = 0, height = 0) {
      this.x = x;
      this.y = y;
      this.width = width;
      this.height = height;
    }
    get top() {
      return this.y;
    }
    get left() {
      return this.x;
    }
    get right() {
      return this.x + this.width;
    }
    get bottom() {
      return this.y + this.height;
    }
    toJSON() {
      return { x: this.x, y: this.y, width: this.width, height: this.height };
    }
    static fromRect(r: { x?: number; y?: number; width?: number; height?: number } = {}) {
      return new DOMRectStub(r.x, r.y, r.width, r.height);
    }
  }
  Object.defineProperty(globalThis, 'DOMRect', { value: DOMRectStub, writable: true, configurable: true });
}
