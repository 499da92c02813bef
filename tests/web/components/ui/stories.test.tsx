// Smoke test: every UI and form story renders in jsdom through the real preview (decorators, i18n)
// without throwing, so a broken story is caught by `vitest` and not only by a Storybook build.
import { act, render, screen } from '@testing-library/react';
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import preview from '../../../../.storybook/preview';
import * as formStories from '../../../../stories/components/form/form.stories';
import { toast } from '@/lib/toast';

setProjectAnnotations(preview);

type StoryModule = Parameters<typeof composeStories>[0];
const modules = import.meta.glob<StoryModule>('../../../../stories/components/{ui,form}/*.stories.tsx', { eager: true });

describe('stories render', () => {
  for (const [path, mod] of Object.entries(modules)) {
    const file = path.split('/').slice(-2).join('/');
    for (const [name, Story] of Object.entries(composeStories(mod)) as [string, ComponentType][]) {
      it(`${file} › ${name}`, async () => {
        const { container, unmount } = render(<Story />);
        await act(async () => {});
        expect(container.innerHTML.length + document.body.innerHTML.length).toBeGreaterThan(0);
        unmount();
        act(() => toast.dismiss());
      });
    }
  }

  it('the form story shows translated zod messages', async () => {
    const { WithErrors } = composeStories(formStories);
    render(<WithErrors />);
    expect(await screen.findByText('请填写登录用户名')).toBeInTheDocument();
  });
});
