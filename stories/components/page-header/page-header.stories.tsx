import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PageHeader } from '@/components/page-header/page-header';
import { Button } from '@/components/ui/button';

const meta = {
  title: 'Components/PageHeader',
  component: PageHeader,
  parameters: { layout: 'padded' },
  args: { title: '' },
  // Back needs history: start on an edit page with the list page behind it.
  decorators: [
    (Story) => (
      <MemoryRouter initialEntries={['/list', '/edit']} initialIndex={1}>
        <Routes>
          <Route path="/list" element={<p className="text-sm text-muted-foreground">/list</p>} />
          <Route path="/edit" element={Story()} />
        </Routes>
      </MemoryRouter>
    ),
  ],
} satisfies Meta<typeof PageHeader>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Back asks first: page data will not be saved (docs/product-rules.md#leaving-a-form). */
export const BackWithConfirmation: Story = {
  render: function Render() {
    const { t } = useTranslation('components');
    return (
      <PageHeader
        back
        title={t('demo.editClass')}
        description={t('demo.editClassHint')}
        actions={
          <>
            <Button variant="outline">{t('demo.reset')}</Button>
            <Button>{t('demo.save')}</Button>
          </>
        }
      />
    );
  },
};

/** Read-only pages go straight back. */
export const SafeBack: Story = {
  render: function Render() {
    const { t } = useTranslation('components');
    return <PageHeader back={{ safe: true }} title={t('demo.detail')} />;
  },
};

export const TitleOnly: Story = {
  render: function Render() {
    const { t } = useTranslation('components');
    return <PageHeader title={t('demo.editClass')} actions={<Button>{t('demo.add')}</Button>} />;
  },
};
