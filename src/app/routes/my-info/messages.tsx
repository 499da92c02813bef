import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { JobMessages } from '@/features/messages/components/job-messages';
import { NoticeInbox } from '@/features/notices/components/notice-inbox';
import { MyInfoFrame } from './frame';

/**
 * The message centre's tabs (docs/product-rules.md#to-dos-and-messages): one entry each, composed here because
 * features do not import each other. The first is the default, the others
 * are kept in the URL (`?tab=`).
 */
export const MESSAGE_TABS: readonly { value: string; label: `${string}:${string}`; component: ComponentType }[] = [
  { value: 'notices', label: 'messages:tab.notices', component: NoticeInbox },
  { value: 'jobs', label: 'messages:tab.jobs', component: JobMessages },
];

/** /myInfo/messages: the user's messages, one tab per inbox. */
export function MyInfoMessagesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab = MESSAGE_TABS.some((x) => x.value === asked) ? asked! : MESSAGE_TABS[0].value;
  const choose = (value: string) =>
    setParams(() => {
      // Another tab's filters do not carry over.
      const next = new URLSearchParams();
      if (value !== MESSAGE_TABS[0].value) next.set('tab', value);
      return next;
    });
  return (
    <MyInfoFrame>
      <Tabs value={tab} onValueChange={choose} data-testid="messages-tabs">
        {MESSAGE_TABS.length > 1 ? (
          <TabsList>
            {MESSAGE_TABS.map((x) => (
              <TabsTrigger key={x.value} value={x.value} data-testid={`messages-tab-${x.value}`}>
                {t(x.label)}
              </TabsTrigger>
            ))}
          </TabsList>
        ) : null}
        {MESSAGE_TABS.map(({ value, component: Tab }) => (
          <TabsContent key={value} value={value}>
            <Tab />
          </TabsContent>
        ))}
      </Tabs>
    </MyInfoFrame>
  );
}
