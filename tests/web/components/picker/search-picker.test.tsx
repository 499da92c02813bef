import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SearchPicker, type PickerOption } from '@/components/picker/search-picker';
import { createQueryClient } from '@/lib/query-client';

const PEOPLE: PickerOption[] = [
  { id: 'a', name: '王芳', hint: '13900000001' },
  { id: 'b', name: '王伟', hint: '13900000002' },
  { id: 'c', name: '李娜', hint: '13900000003' },
];

function setup(exclude = new Set<string>()) {
  const search = vi.fn(async (keyword: string) => PEOPLE.filter((p) => p.name.includes(keyword)));
  const onPick = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SearchPicker queryKey={['people']} search={search} onPick={onPick} exclude={exclude} label="关联家长" />
    </QueryClientProvider>,
  );
  return { search, onPick, box: screen.getByRole('combobox', { name: '关联家长' }) };
}

describe('SearchPicker', () => {
  it('searches what is typed and picks with the keyboard, then empties the box', async () => {
    const { search, onPick, box } = setup();
    await userEvent.type(box, '王');
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('王'));
    expect(await screen.findAllByRole('option')).toHaveLength(2);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(onPick).toHaveBeenCalledWith(PEOPLE[1]);
    expect(box).toHaveValue('');
  });

  it('does not offer what is already picked, and says when nothing matches', async () => {
    const { onPick, box } = setup(new Set(['a']));
    await userEvent.type(box, '王');
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['王伟13900000002']));
    await userEvent.click(screen.getByRole('option'));
    expect(onPick).toHaveBeenCalledWith(PEOPLE[1]);
    await userEvent.type(box, '赵');
    expect(await screen.findByText('无匹配结果')).toBeInTheDocument();
  });

  it("never offers the last scope's matches while the new scope's load (a relay team's class after its first runner)", async () => {
    let answer: (people: PickerOption[]) => void = () => undefined;
    const search = vi.fn((keyword: string) => (keyword === 'slow' ? new Promise<PickerOption[]>((r) => (answer = r)) : Promise.resolve(PEOPLE)));
    const client = createQueryClient();
    const picker = (scope: string) => (
      <QueryClientProvider client={client}>
        <SearchPicker queryKey={['people', scope]} search={(k) => search(scope === 'class' ? 'slow' : k)} onPick={vi.fn()} label="关联家长" />
      </QueryClientProvider>
    );
    const { rerender } = render(picker('all'));
    const box = screen.getByRole('combobox', { name: '关联家长' });
    await userEvent.click(box);
    expect(await screen.findAllByRole('option')).toHaveLength(3);
    await userEvent.keyboard('{Escape}');
    rerender(picker('class'));
    await userEvent.click(box);
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('slow'));
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    answer([PEOPLE[2]]);
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['李娜13900000003']));
  });
});
