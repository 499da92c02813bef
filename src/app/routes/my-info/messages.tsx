import { NoticeInbox } from '@/features/notices/components/notice-inbox';
import { MyInfoFrame } from './frame';

/** /myInfo/messages: the notices addressed to the user (docs/product-rules.md#notices); to-dos and job messages join it. */
export function MyInfoMessagesPage() {
  return (
    <MyInfoFrame>
      <NoticeInbox />
    </MyInfoFrame>
  );
}
