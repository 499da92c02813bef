import { describe, expect, it } from 'vitest';
import { pinyinKeys, preparePages, searchPages, type SearchPage } from '@/components/layout/menu-search-match';

const zh: SearchPage[] = [
  { path: '/k12/org/grade', label: '年级管理', trail: ['组织管理'] },
  { path: '/k12/org/class', label: '班级管理', trail: ['组织管理'] },
  { path: '/k12/user/student', label: '学生管理', trail: ['用户管理'] },
  { path: '/k12/organizeTest/testManage', label: '体测计划', trail: ['体质测试'] },
];
const en: SearchPage[] = zh.map((p, i) => ({ ...p, zhName: p.label, label: ['Grades', 'Classes', 'Students', 'Test plans'][i], trail: [['Organisation'], ['Organisation'], ['Users'], ['Physique tests']][i] }));
const paths = (pages: SearchPage[]) => pages.map((p) => p.path);

describe('menu search matching (docs/product-rules.md#menu-search)', () => {
  it('finds pages by their Chinese name, best match first', () => {
    const p = preparePages(zh);
    expect(paths(searchPages(p, '班级'))).toEqual(['/k12/org/class']);
    expect(paths(searchPages(p, '管理'))).toEqual(['/k12/org/grade', '/k12/org/class', '/k12/user/student']);
    expect(searchPages(p, '')).toHaveLength(4);
    expect(searchPages(p, '不存在')).toEqual([]);
  });

  it('finds pages by pinyin initials and by spelled pinyin', () => {
    expect(pinyinKeys('班级管理')).toEqual({ initials: 'bjgl', spelled: 'banjiguanli' });
    const p = preparePages(zh);
    expect(paths(searchPages(p, 'bjgl'))).toEqual(['/k12/org/class']);
    expect(paths(searchPages(p, 'BJ'))).toEqual(['/k12/org/class']);
    expect(paths(searchPages(p, 'tcjh'))).toEqual(['/k12/organizeTest/testManage']);
    expect(paths(searchPages(p, 'xuesheng'))).toEqual(['/k12/user/student']);
  });

  it('finds pages by their English name (and still by the Chinese name’s pinyin in English)', () => {
    const p = preparePages(en);
    expect(paths(searchPages(p, 'class'))).toEqual(['/k12/org/class']);
    expect(paths(searchPages(p, 'test p'))).toEqual(['/k12/organizeTest/testManage']);
    expect(paths(searchPages(p, 'bjgl'))).toEqual(['/k12/org/class']);
    // A group's name finds its pages after direct matches.
    expect(paths(searchPages(p, 'organisation'))).toEqual(['/k12/org/grade', '/k12/org/class']);
  });
});
