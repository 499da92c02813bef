import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FilterSelect, FilterText, SearchForm } from '@/components/search-form/search-form';

function Harness({ onSearch, onReset }: { onSearch(v: { level?: string; name: string }): void; onReset?(): void }) {
  const [level, setLevel] = useState<string | undefined>('pass');
  const [name, setName] = useState('');
  return (
    <SearchForm onSearch={() => onSearch({ level, name })} onReset={onReset}>
      <FilterSelect
        label="等级"
        value={level}
        onChange={setLevel}
        options={[
          { value: 'pass', label: '及格' },
          { value: 'fail', label: '不及格' },
        ]}
      />
      <FilterText id="t-name" label="姓名" value={name} onChange={setName} />
    </SearchForm>
  );
}

describe('SearchForm', () => {
  it('applies the drafted filters on Search or Enter, with "all" as no filter', async () => {
    const onSearch = vi.fn();
    render(<Harness onSearch={onSearch} />);
    await userEvent.click(screen.getByRole('combobox', { name: '等级' }));
    await userEvent.click(await screen.findByRole('option', { name: '全部' }));
    await userEvent.type(screen.getByLabelText('姓名'), '张三');
    expect(onSearch).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    expect(onSearch).toHaveBeenLastCalledWith({ level: undefined, name: '张三' });

    await userEvent.type(screen.getByLabelText('姓名'), '丰{Enter}');
    expect(onSearch).toHaveBeenLastCalledWith({ level: undefined, name: '张三丰' });
  });

  it('offers Reset only when it can reset', async () => {
    const onReset = vi.fn();
    const { unmount } = render(<Harness onSearch={vi.fn()} onReset={onReset} />);
    await userEvent.click(screen.getByRole('button', { name: '重置' }));
    expect(onReset).toHaveBeenCalledOnce();
    unmount();
    render(<Harness onSearch={vi.fn()} />);
    expect(screen.queryByRole('button', { name: '重置' })).toBeNull();
  });
});
