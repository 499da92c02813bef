import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next, { type i18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ethnicityCode,
  findHeaderRow,
  formatRowError,
  formatRowErrors,
  gradeFromNationalCode,
  headerKey,
  isBlankRow,
  mapHeaders,
  NATIONAL_COLUMNS,
  nationalCodeFromGrade,
  parseTemplateDate,
  parseTemplateRow,
  type NationalColumnKey,
  type TemplateFieldError,
} from '@/domain/physique/national-template';
import { scoreStudent } from '@/domain/physique/score';
import { GRADES } from '@/domain/physique/standard';
import { nationalTemplateRows } from '../../support/national-template-fixture';

const HEADERS = NATIONAL_COLUMNS.map((c) => c.header);
const mapping = mapHeaders(HEADERS);

/** A valid row of grade 13 (大一) male with every university item; `over` replaces cells by key. */
function row(over: Partial<Record<NationalColumnKey, unknown>> = {}): unknown[] {
  const base: Record<NationalColumnKey, unknown> = {
    gradeNo: 41,
    classNo: '4101',
    className: '2025级1班',
    regNo: 'g11010520070901123x',
    ethnicity: 1,
    name: '张三',
    gender: 1,
    birthDate: '2007-09-01',
    address: '北京市海淀区中关村大街1号',
    heightCm: 175.2,
    weightKg: 65.4,
    vitalCapacity: 4200,
    run50m: 7.3,
    sitAndReach: 12.5,
    rope1min: null,
    sitUp1min: null,
    shuttle50x8: null,
    pullUp: 12,
    standingLongJump: 235,
    run1000m: 3.4,
    run800m: '',
  };
  return NATIONAL_COLUMNS.map((c) => (c.key in over ? over[c.key] : base[c.key]));
}

const errorsOf = (cells: unknown[]) => {
  const r = parseTemplateRow(cells, mapping, 5);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
};

describe('national template columns', () => {
  it('lists the identity columns, then the item columns, in template order', () => {
    expect(HEADERS).toEqual([
      '年级编号', '班级编号', '班级名称', '学籍号', '民族代码', '姓名', '性别', '出生日期', '家庭住址',
      '身高', '体重', '肺活量', '50米跑', '坐位体前屈', '一分钟跳绳', '一分钟仰卧起坐', '50米×8往返跑', '引体向上', '立定跳远', '1000米跑', '800米跑',
    ]);
    expect(new Set(NATIONAL_COLUMNS.map((c) => c.key)).size).toBe(NATIONAL_COLUMNS.length);
    expect(NATIONAL_COLUMNS.filter((c) => c.required).map((c) => c.key)).toEqual(['gradeNo', 'classNo', 'regNo', 'name', 'gender']);
  });

  it('maps the national header row completely', () => {
    expect(mapping.missing).toEqual([]);
    expect(mapping.unknown).toEqual([]);
    expect(mapping.duplicates).toEqual([]);
    expect([...mapping.columns.values()]).toEqual(HEADERS.map((_, i) => i));
    expect(mapping.resultColumns.map(([k]) => k)).toEqual(['heightCm', 'weightKg', 'vitalCapacity', 'run50m', 'sitAndReach', 'rope1min', 'sitUp1min', 'shuttle50x8', 'pullUp', 'standingLongJump', 'run1000m', 'run800m']);
  });

  it.each([
    ['学籍号', 'regNo'], ['学籍编号', 'regNo'], ['学生学籍号', 'regNo'], ['全国学籍号', 'regNo'], ['學籍號', 'regNo'],
    ['50米跑(秒)', 'run50m'], ['50米跑（秒）', 'run50m'], ['50米跑/秒', 'run50m'], ['50公尺跑', 'run50m'],
    ['肺活量(毫升)', 'vitalCapacity'], ['肺活量（ml）', 'vitalCapacity'],
    ['身高(cm)', 'heightCm'], ['身高cm', 'heightCm'], ['身高 （厘米）', 'heightCm'], ['体重(kg)', 'weightKg'], ['體重(公斤)', 'weightKg'],
    ['1分钟跳绳', 'rope1min'], ['一分钟跳绳(次)', 'rope1min'], ['１分钟跳绳', 'rope1min'], ['一分鐘跳繩', 'rope1min'], ['1分钟仰卧起坐', 'sitUp1min'],
    ['50米×8往返跑', 'shuttle50x8'], ['50米*8往返跑', 'shuttle50x8'], ['50米x8往返跑', 'shuttle50x8'], ['50米X8往返跑', 'shuttle50x8'], ['50米＊8往返跑（分·秒）', 'shuttle50x8'],
    ['坐位体前屈(厘米)', 'sitAndReach'], ['1000米跑（分.秒）', 'run1000m'], ['800米', 'run800m'],
    [' 姓 名 ', 'name'], ['*姓名', 'name'], ['姓名*', 'name'], ['姓名【必填】', 'name'], ['\u3000性别\u3000', 'gender'], ['性別', 'gender'],
    ['年级编号', 'gradeNo'], ['年級編號', 'gradeNo'], ['班级编号', 'classNo'], ['民族', 'ethnicity'], ['出生年月', 'birthDate'],
  ])('header %s → %s', (header, key) => {
    expect(headerKey(header)).toBe(key);
  });

  it.each(['学号', '备注', '身份证号', '总分', ''])('header %j is not a template column', (header) => {
    expect(headerKey(header)).toBeNull();
  });

  it('maps by name whatever the order, and reports unknown, missing and duplicate columns', () => {
    const m = mapHeaders(['备注', '性别', '姓名(必填)', null, '学号', '50米跑(秒)', '年级编号', '班级编号', '姓名', '']);
    expect(m.columns.get('gender')).toBe(1);
    expect(m.columns.get('name')).toBe(2); // the first occurrence wins
    expect(m.columns.get('run50m')).toBe(5);
    expect(m.unknown).toEqual(['备注', '学号']);
    expect(m.duplicates).toEqual([{ key: 'name', columns: [2, 8] }]);
    expect(m.missing).toEqual(['regNo']);
    expect(m.resultColumns).toEqual([['run50m', 5]]);
  });

  it('reports every missing required column in template order', () => {
    expect(mapHeaders(['身高', '体重']).missing).toEqual(['gradeNo', 'classNo', 'regNo', 'name', 'gender']);
  });

  it('finds the header row below a title row', () => {
    const found = findHeaderRow([['2025学年体质健康测试成绩'], [], HEADERS, row()]);
    expect(found?.index).toBe(2);
    expect(found?.mapping.missing).toEqual([]);
    expect(findHeaderRow([['title'], ['a', 'b']])).toBeNull();
  });
});

describe('national grade codes', () => {
  const codes: [number, number][] = [
    [11, 1], [12, 2], [13, 3], [14, 4], [15, 5], [16, 6], [21, 7], [22, 8], [23, 9],
    [31, 10], [32, 11], [33, 12], [41, 13], [42, 14], [43, 15], [44, 16],
  ];
  it.each(codes)('code %i ↔ grade %i', (code, grade) => {
    expect(gradeFromNationalCode(code)).toBe(grade);
    expect(gradeFromNationalCode(String(code))).toBe(grade);
    expect(nationalCodeFromGrade(grade as (typeof GRADES)[number])).toBe(code);
  });

  it('covers every grade once', () => {
    expect(codes.map(([, g]) => g)).toEqual([...GRADES]);
  });

  it.each([10, 17, 20, 24, 30, 34, 40, 45, 1, 11.5, '111', 'abc', '', null, undefined])('rejects %j', (code) => {
    expect(gradeFromNationalCode(code)).toBeNull();
  });

  it('accepts full-width digits', () => {
    expect(gradeFromNationalCode('１１')).toBe(1);
  });

  it('throws for a grade outside 1–16', () => {
    expect(() => nationalCodeFromGrade(17 as never)).toThrow(RangeError);
  });
});

describe('dates', () => {
  it.each<[unknown, string]>([
    [40299, '2010-05-01'],
    [40299.75, '2010-05-01'],
    [61, '1900-03-01'],
    ['2010-05-01', '2010-05-01'],
    ['2010-5-1', '2010-05-01'],
    ['2010/5/1', '2010-05-01'],
    ['2010/05/01', '2010-05-01'],
    ['2010.5.1', '2010-05-01'],
    ['2010年5月1日', '2010-05-01'],
    ['2010 年 5 月 1 日', '2010-05-01'],
    ['20100501', '2010-05-01'],
    [20100501, '2010-05-01'],
    ['2010-05-01 00:00:00', '2010-05-01'],
    ['２０１０－０５－０１', '2010-05-01'],
    ['2012-02-29', '2012-02-29'],
    [new Date(2010, 4, 1), '2010-05-01'],
  ])('%j → %s', (input, iso) => {
    expect(parseTemplateDate(input)).toBe(iso);
  });

  it('reads the 1904 date system', () => {
    expect(parseTemplateDate(0, true)).toBe('1904-01-01');
    expect(parseTemplateDate(38837, true)).toBe('2010-05-01');
  });

  it.each<unknown>(['2010-02-30', '2011-02-29', '2010-13-01', '2010-00-10', '1899-12-31', '2101-01-01', 'abc', '2010-05', '5/1/2010', 60, 5, -1, Number.NaN, true, null, new Date(Number.NaN)])('rejects %j', (input) => {
    expect(parseTemplateDate(input)).toBeNull();
  });
});

describe('ethnicity codes', () => {
  it.each<[unknown, string]>([[1, '01'], ['1', '01'], ['01', '01'], [56, '56'], ['97', '97'], [98, '98'], ['汉族', '01'], ['汉', '01'], ['漢族', '01'], ['回族', '03'], ['维吾尔族', '05'], ['朝鲜族', '10'], ['满族', '11'], ['基诺族', '56'], ['其他', '97']])(
    '%j → %s',
    (input, code) => {
      expect(ethnicityCode(input)).toBe(code);
    },
  );

  it.each<unknown>([0, 57, 99, '火星族', '', null])('rejects %j', (input) => {
    expect(ethnicityCode(input)).toBeNull();
  });
});

describe('parseTemplateRow', () => {
  it('converts a valid row', () => {
    const r = parseTemplateRow(row(), mapping, 7);
    expect(r).toEqual({
      ok: true,
      row: {
        rowNumber: 7,
        gradeNo: 41,
        grade: 13,
        classNo: '4101',
        className: '2025级1班',
        regNo: 'G11010520070901123X',
        ethnicity: '01',
        name: '张三',
        gender: 'male',
        birthDate: '2007-09-01',
        address: '北京市海淀区中关村大街1号',
        results: { heightCm: 175.2, weightKg: 65.4, vitalCapacity: 4200, run50m: 7.3, sitAndReach: 12.5, pullUp: 12, standingLongJump: 235, run1000m: 220 },
      },
    });
  });

  it('feeds scoreStudent directly', () => {
    const r = parseTemplateRow(row(), mapping, 2);
    if (!r.ok) throw new Error('expected a valid row');
    const s = scoreStudent({ grade: r.row.grade, gender: r.row.gender, results: r.row.results });
    expect(s.complete).toBe(true);
    expect(s.total).toBeGreaterThan(60);
  });

  it('reads identity cells in their other spellings', () => {
    const r = parseTemplateRow(row({ gradeNo: '41', classNo: 4101, gender: '女', ethnicity: '汉族', birthDate: 39326, regNo: ' G110105 2007 0901123X ', name: '  欧阳   娜娜 ' }), mapping, 2);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.row).toMatchObject({ grade: 13, classNo: '4101', gender: 'female', ethnicity: '01', birthDate: '2007-09-01', regNo: 'G11010520070901123X', name: '欧阳 娜娜' });
    expect(parseTemplateRow(row({ gender: 2 }), mapping, 2)).toMatchObject({ ok: true, row: { gender: 'female' } });
    expect(parseTemplateRow(row({ gender: '男' }), mapping, 2)).toMatchObject({ ok: true, row: { gender: 'male' } });
    expect(parseTemplateRow(row({ regNo: 12345678 }), mapping, 2)).toMatchObject({ ok: true, row: { regNo: '12345678' } });
  });

  it('leaves optional identity cells empty', () => {
    const r = parseTemplateRow(row({ className: null, ethnicity: '', birthDate: undefined, address: '  ' }), mapping, 2);
    expect(r).toMatchObject({ ok: true, row: { className: null, ethnicity: null, birthDate: null, address: null } });
  });

  it('reads results as the national export writes them and as people type them', () => {
    const r = parseTemplateRow(row({ run1000m: `3'40"`, run50m: '7.3秒', vitalCapacity: '4.2L', standingLongJump: '2.35m', pullUp: '12次' }), mapping, 2);
    expect(r).toMatchObject({ ok: true, row: { results: { run1000m: 220, run50m: 7.3, vitalCapacity: 4200, standingLongJump: 235, pullUp: 12 } } });
    // Excel drops the decimals of a whole minute (4.00 → 4) and adds binary noise to sums.
    expect(parseTemplateRow(row({ run1000m: 4 }), mapping, 2)).toMatchObject({ ok: true, row: { results: { run1000m: 240 } } });
    expect(parseTemplateRow(row({ run1000m: '4' }), mapping, 2)).toMatchObject({ ok: true, row: { results: { run1000m: 240 } } });
    expect(parseTemplateRow(row({ run1000m: 3.4000000000000004 }), mapping, 2)).toMatchObject({ ok: true, row: { results: { run1000m: 220 } } });
    expect(parseTemplateRow(row({ run1000m: 230 }), mapping, 2)).toMatchObject({ ok: true, row: { results: { run1000m: 230 } } });
  });

  it('reads run times and birth dates as cells under time and date formats show them', () => {
    for (const shown of ['00:03:40', '0:03:40', '03:40', '3:40']) {
      expect(parseTemplateRow(row({ run1000m: shown, run800m: shown }), mapping, 2), shown).toMatchObject({ ok: true, row: { results: { run1000m: 220, run800m: 220 } } });
    }
    expect(parseTemplateRow(row({ shuttle50x8: '00:01:45', run50m: '00:07.3' }), mapping, 2)).toMatchObject({ ok: true, row: { results: { shuttle50x8: 105, run50m: 7.3 } } });
    for (const shown of ['2010-05-01', '2010-05-01 00:00:00']) {
      expect(parseTemplateRow(row({ birthDate: shown }), mapping, 2)).toMatchObject({ ok: true, row: { birthDate: '2010-05-01' } });
    }
    // Excel's fictitious 1900-02-29 is no date.
    expect(parseTemplateRow(row({ birthDate: '1900-02-29' }), mapping, 2)).toMatchObject({ ok: false, errors: [{ field: 'birthDate', key: 'physique:import.invalidDate' }] });
  });

  it('treats empty result cells and dash marks as not tested', () => {
    for (const blank of [null, undefined, '', '   ', '-', '/', '—', '－']) {
      const r = parseTemplateRow(row({ pullUp: blank }), mapping, 2);
      if (!r.ok) throw new Error(`${String(blank)}: ${JSON.stringify(r.errors)}`);
      expect('pullUp' in r.row.results).toBe(false);
    }
  });

  it('reads only the columns the file has', () => {
    const m = mapHeaders(['学籍号', '姓名', '性别', '班级编号', '年级编号', '身高']);
    expect(parseTemplateRow(['G1', '李四', 2, '1101', 11, 120.5], m, 2)).toMatchObject({ ok: true, row: { grade: 1, regNo: 'G1', results: { heightCm: 120.5 } } });
  });

  it.each<[string, Partial<Record<NationalColumnKey, unknown>>, TemplateFieldError]>([
    ['required name', { name: '  ' }, { field: 'name', key: 'physique:import.required' }],
    ['required regNo', { regNo: null }, { field: 'regNo', key: 'physique:import.required' }],
    ['required gender', { gender: '' }, { field: 'gender', key: 'physique:import.required' }],
    ['required grade', { gradeNo: null }, { field: 'gradeNo', key: 'physique:import.required' }],
    ['required class', { classNo: '' }, { field: 'classNo', key: 'physique:import.required' }],
    ['long name', { name: '张'.repeat(51) }, { field: 'name', key: 'physique:import.tooLong', params: { max: 50 } }],
    ['long address', { address: '路'.repeat(201) }, { field: 'address', key: 'physique:import.tooLong', params: { max: 200 } }],
    ['grade code', { gradeNo: 17 }, { field: 'gradeNo', key: 'physique:import.invalidGradeCode', params: { value: '17' } }],
    ['grade name', { gradeNo: '初一' }, { field: 'gradeNo', key: 'physique:import.invalidGradeCode', params: { value: '初一' } }],
    ['gender', { gender: '3' }, { field: 'gender', key: 'physique:import.invalidGender', params: { value: '3' } }],
    ['reg no', { regNo: 'G1101-05' }, { field: 'regNo', key: 'physique:import.invalidRegNo', params: { value: 'G1101-05' } }],
    ['reg no as number', { regNo: 1.1010520070901e17 }, { field: 'regNo', key: 'physique:import.regNoAsNumber' }],
    ['ethnicity', { ethnicity: '99' }, { field: 'ethnicity', key: 'physique:import.invalidEthnicity', params: { value: '99' } }],
    ['date', { birthDate: '2007-02-30' }, { field: 'birthDate', key: 'physique:import.invalidDate', params: { value: '2007-02-30' } }],
    ['date object as name', { name: new Date(2020, 0, 1) }, { field: 'name', key: 'physique:import.invalidText' }],
    ['sprint', { run50m: '八秒' }, { field: 'run50m', key: 'physique:parse.invalidSprint' }],
    ['height range', { heightCm: 1752 }, { field: 'heightCm', key: 'physique:parse.outOfRange', params: { min: 50, max: 250 } }],
    ['seconds overflow', { run1000m: '3:75' }, { field: 'run1000m', key: 'physique:parse.secondsOverflow' }],
    ['count', { pullUp: '12.5' }, { field: 'pullUp', key: 'physique:parse.invalidCount' }],
    ['volume', { vitalCapacity: 'abc' }, { field: 'vitalCapacity', key: 'physique:parse.invalidVolume' }],
    ['weight', { weightKg: '六十' }, { field: 'weightKg', key: 'physique:parse.invalidWeight' }],
    ['reach', { sitAndReach: 'x' }, { field: 'sitAndReach', key: 'physique:parse.invalidReach' }],
    ['jump', { standingLongJump: '-5' }, { field: 'standingLongJump', key: 'physique:parse.invalidJump' }],
    ['time', { run1000m: 'fast' }, { field: 'run1000m', key: 'physique:parse.invalidTime' }],
  ])('rejects %s', (_, over, error) => {
    expect(errorsOf(row(over))).toEqual([error]);
  });

  it('reports every problem of a row, in column order', () => {
    const errors = errorsOf(row({ gradeNo: 99, name: '', gender: 'x', run50m: 'abc', run1000m: '3:99' }));
    expect(errors.map((e) => e.field)).toEqual(['gradeNo', 'name', 'gender', 'run50m', 'run1000m']);
  });

  it('returns the row number with the errors', () => {
    expect(parseTemplateRow(row({ name: '' }), mapping, 42)).toMatchObject({ ok: false, rowNumber: 42 });
  });

  it('shortens long bad values in messages', () => {
    expect(errorsOf(row({ gender: '这是一个非常非常非常非常非常非常长的性别值' }))[0].params?.value).toBe('这是一个非常非常非常非常非常非常长的性别…');
  });

  it('rejects exactly the rows the fixture broke', () => {
    const { rows, invalid } = nationalTemplateRows({ rows: 3000, invalidShare: 0.05, seed: 7 });
    const m = mapHeaders(rows[0]);
    const rejected = new Map<number, NationalColumnKey>();
    for (let i = 1; i < rows.length; i++) {
      const r = parseTemplateRow(rows[i], m, i + 1);
      if (!r.ok) rejected.set(i + 1, r.errors[0].field);
    }
    expect(invalid.size).toBeGreaterThan(100);
    expect(rejected).toEqual(invalid);
  });

  it('tells blank rows apart', () => {
    expect(isBlankRow([])).toBe(true);
    expect(isBlankRow([null, '', '  ', undefined])).toBe(true);
    expect(isBlankRow([null, 0])).toBe(false);
    expect(isBlankRow(['x'])).toBe(false);
  });
});

describe('formatRowError', () => {
  const root = join(import.meta.dirname, '../../../locales');
  const instances = new Map<string, i18n>();
  beforeAll(async () => {
    for (const lng of ['zh_cn', 'zh_tw', 'en_us']) {
      const instance = i18next.createInstance();
      await instance.init({
        lng,
        resources: { [lng]: { physique: JSON.parse(readFileSync(join(root, lng, 'physique.json'), 'utf8')) as Record<string, unknown> } },
        ns: ['physique'],
        defaultNS: 'physique',
      });
      instances.set(lng, instance);
    }
  });
  const t = (lng: string) => instances.get(lng)!.t;

  it("writes a row's failure reason in each language", () => {
    const err: TemplateFieldError = { field: 'gender', key: 'physique:import.invalidGender', params: { value: '3' } };
    expect(formatRowError(t('zh_cn'), 5, err)).toBe('第5行，性别：“3”无效，应填写1（男）或2（女）');
    expect(formatRowError(t('zh_tw'), 5, err)).toBe('第5列，性別：「3」無效，應填寫1（男）或2（女）');
    expect(formatRowError(t('en_us'), 5, err)).toBe('Row 5, Gender: "3" is invalid; use 1 (male) or 2 (female)');
  });

  it('fills the parse messages and their ranges without HTML escaping', () => {
    expect(formatRowError(t('zh_cn'), 12, { field: 'heightCm', key: 'physique:parse.outOfRange', params: { min: 50, max: 250 } })).toBe('第12行，身高：数值超出合理范围（50～250）');
    expect(formatRowError(t('zh_cn'), 3, { field: 'run1000m', key: 'physique:parse.invalidTime' })).toBe(`第3行，1000米跑：时间格式不正确，可填写 3'40"、3:40、3分40秒、3.40 或 220（秒）`);
    expect(formatRowError(t('en_us'), 3, { field: 'regNo', key: 'physique:import.invalidRegNo', params: { value: `<b>&'` } })).toBe(
      `Row 3, Registration number: "<b>&'" is not valid; registration numbers contain only letters and digits`,
    );
  });

  it('has a label and a message for every column and error kind', () => {
    const keys = new Set<string>();
    const broken = [{ name: '' }, { gradeNo: 1 }, { gender: 9 }, { regNo: 'a-b' }, { regNo: 2 ** 60 }, { ethnicity: 0 }, { birthDate: 'x' }, { name: new Date() }, { className: 'x'.repeat(51) }];
    for (const over of broken) for (const e of errorsOf(row(over))) keys.add(e.key);
    expect(keys.size).toBe(broken.length); // one error kind each
    for (const lng of ['zh_cn', 'zh_tw', 'en_us']) {
      const inst = instances.get(lng)!;
      for (const k of keys) expect(inst.exists(k), `${lng} ${k}`).toBe(true);
      for (const c of NATIONAL_COLUMNS) expect(inst.exists(`physique:template.column.${c.key}`), `${lng} ${c.key}`).toBe(true);
    }
  });

  it('joins the reasons of a row into one cell', () => {
    const errors = errorsOf(row({ name: '', gender: 'x' }));
    expect(formatRowErrors(t('zh_cn'), 9, errors)).toBe('第9行，姓名：不能为空；第9行，性别：“x”无效，应填写1（男）或2（女）');
    expect(formatRowErrors(t('en_us'), 9, errors)).toBe('Row 9, Name: Required; Row 9, Gender: "x" is invalid; use 1 (male) or 2 (female)');
  });
});
