import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { fn } from 'storybook/test';
import { FilterSelect, FilterText, SearchForm } from '@/components/search-form/search-form';

const meta = {
  title: 'Components/SearchForm',
  component: SearchForm,
  args: { onSearch: fn(), onReset: fn(), children: null },
} satisfies Meta<typeof SearchForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A list's filter row: an "all"-first select, a keyword field, Search and Reset. */
export const Default: Story = {
  render: function Render(args) {
    const { t } = useTranslation('components');
    const [level, setLevel] = useState<string | undefined>();
    const [name, setName] = useState('');
    return (
      <SearchForm {...args}>
        <FilterSelect
          label={t('demo.level')}
          className="w-32"
          value={level}
          onChange={setLevel}
          options={[
            { value: 'excellent', label: t('demo.excellent') },
            { value: 'pass', label: t('demo.pass') },
            { value: 'fail', label: t('demo.fail') },
          ]}
        />
        <FilterText id="story-search-name" label={t('demo.name')} value={name} onChange={setName} />
      </SearchForm>
    );
  },
};

/** Without `onReset` there is only the Search button. */
export const SearchOnly: Story = { ...Default, args: { onReset: undefined } };
