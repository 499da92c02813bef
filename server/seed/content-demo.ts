import { asc, eq } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { richTextLength } from '@/domain/content/rich-text';
import type { WikiCategory } from '@/domain/content/wiki';
import type { DbOrTx } from '../db/client';
import { lessonResources, wikiEntries } from '../db/schema/content';
import { orgs } from '../db/schema/orgs';

/** [title, category, published, text]: plain markup the sanitiser keeps as it is. */
const WIKI: readonly [string, WikiCategory, boolean, string][] = [
  [
    '立定跳远动作要领',
    'skills',
    true,
    '<h2>预备</h2><p>两脚自然分开，与肩同宽，两臂前后摆动。</p><h2>起跳</h2><ol><li>两臂由后向前上方用力摆动</li><li>两脚快速蹬地，向前上方跳出</li><li>落地时屈膝缓冲，身体不后倒</li></ol>',
  ],
  ['50米跑常见犯规', 'rules', true, '<p>抢跑：发令枪响前身体任何部位离开起跑线或起跑器，第一次警告，第二次取消该项成绩。</p><blockquote>串道也会被判犯规。</blockquote>'],
  ['运动后如何补水', 'health', false, '<p>运动后少量多次饮水，每次约150毫升，避免一次大量饮用冰水。</p>'],
];

/** [title, grade, topic, description]. */
const SCHOOL_RESOURCES: readonly [string, number, string, string][] = [
  ['五年级立定跳远单元教案', 5, '立定跳远', '四课时：摆臂、蹬伸、腾空、落地缓冲。'],
  ['一分钟跳绳分层练习', 3, '跳绳', '按基础、提高、挑战三层设计练习内容。'],
];
const LIBRARY: readonly [string, number, string, string][] = [
  ['区级示范课：50米快速跑', 6, '50米跑', '区教研室录制的示范课，附评价量表。'],
  ['坐位体前屈柔韧练习十法', 8, '坐位体前屈', '适合课前热身和课后拉伸。'],
];

/** Demo wiki entries and lesson resources of the first school, and the library of the first management organisation. */
export async function seedContentDemo(db: DbOrTx, now: Date): Promise<void> {
  const first = async (type: number) =>
    (await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, type)).orderBy(asc(orgs.code), asc(orgs.id)).limit(1))[0]?.id;
  const school = await first(ORG_TYPE.k12);
  const bureau = await first(ORG_TYPE.management);
  if (school) {
    await db.insert(wikiEntries).values(
      WIKI.map(([title, category, published, content], i) => ({
        orgId: school,
        title,
        category,
        content,
        textLength: richTextLength(content),
        published,
        publishedAt: published ? now : null,
        updatedAt: new Date(now.getTime() - i * 3_600_000),
      })),
    );
    await db.insert(lessonResources).values(SCHOOL_RESOURCES.map(([title, grade, topic, description]) => ({ orgId: school, title, grade, topic, description })));
  }
  if (bureau) await db.insert(lessonResources).values(LIBRARY.map(([title, grade, topic, description]) => ({ orgId: bureau, title, grade, topic, description })));
}
