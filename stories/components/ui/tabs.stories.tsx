import type { Meta, StoryObj } from '@storybook/react-vite';
import { useTranslation } from 'react-i18next';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';

const meta = {
  title: 'UI/Tabs',
  component: Tabs,
} satisfies Meta<typeof Tabs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  render: function Render() {
    const { t } = useTranslation('ui');
    return (
      <Tabs defaultValue="overview" className="max-w-md">
        <TabsList>
          <TabsTrigger value="overview">{t('demo.tabOverview')}</TabsTrigger>
          <TabsTrigger value="students">{t('demo.tabStudents')}</TabsTrigger>
          <TabsTrigger value="scores">{t('demo.tabScores')}</TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="p-2 text-sm">
          {t('demo.overviewText')}
        </TabsContent>
        <TabsContent value="students" className="p-2 text-sm">
          {t('demo.studentsText')}
        </TabsContent>
        <TabsContent value="scores" className="p-2 text-sm">
          {t('demo.scoresText')}
        </TabsContent>
      </Tabs>
    );
  },
};
