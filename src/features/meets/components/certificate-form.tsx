import type { SchoolFamily } from '@/domain/menus/access';
import { Plus, Trash2 } from 'lucide-react';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import {
  ALIGN_TABLE,
  CERTIFICATE_FIELD_TABLE,
  certificateSaveSchema,
  DEFAULT_CERTIFICATE_FIELDS,
  DEFAULT_CERTIFICATE_STAMP,
  fieldText,
  MM_PER_PT,
  ORIENTATION_TABLE,
  PAGE_MM,
  type CertificateForm,
  type CertificateRow,
  type CertificateValues,
} from '@/domain/meets/documents';
import { enumOptions } from '@/domain/presentation';
import { FieldGroup, SelectField, TextField, UploadField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { certificates, useStamps } from '../documents-api';
import { useFileUrl } from './document-screens';

/** Certificate templates' add and edit (docs/product-rules.md#meet-documents): texts placed in millimetres, with a preview. */
const KEY = 'single.sportsMeet.certificate';

const defaults = (): CertificateForm => ({ name: '', orientation: 'landscape', backgroundFileId: null, fields: DEFAULT_CERTIFICATE_FIELDS, stampId: null, ...DEFAULT_CERTIFICATE_STAMP });
const toValues = (r: CertificateRow): CertificateForm => ({
  name: r.name,
  orientation: r.orientation,
  backgroundFileId: r.backgroundFileId,
  fields: r.fields,
  stampId: r.stampId,
  stampX: r.stampX ?? DEFAULT_CERTIFICATE_STAMP.stampX,
  stampY: r.stampY ?? DEFAULT_CERTIFICATE_STAMP.stampY,
  stampSize: r.stampSize ?? DEFAULT_CERTIFICATE_STAMP.stampSize,
  version: r.version,
});

export function CertificateFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { id } = useParams();
  const access = usePageAccess(KEY);
  const stamps = useStamps(family);
  const stampOptions = (stamps.list.data ?? []).map((s) => ({ value: s.id, label: s.name }));
  return (
    <FormScreen
      schema={certificateSaveSchema}
      resource={certificates(family)}
      id={id}
      defaults={defaults()}
      toValues={toValues}
      title={id ? t('certificate.editTitle') : t('certificate.addTitle')}
      backTo={access.paths.list}
      data-testid="certificate-form"
    >
      {(form) => (
        <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <div className="grid content-start gap-6">
            <FieldGroup>
              <TextField name="name" label={t('certificate.name')} required placeholder={t('certificate.namePlaceholder')} />
              <SelectField name="orientation" label={t('certificate.orientation')} required clearable={false} options={enumOptions(ORIENTATION_TABLE, t)} />
              <UploadField name="backgroundFileId" label={t('certificate.background')} purpose="certificate" maxCount={1} description={t('certificate.backgroundHint')} className="md:col-span-2" />
            </FieldGroup>
            <Fields form={form} />
            <FieldGroup>
              <SelectField name="stampId" label={t('certificate.stamp')} placeholder={t('certificate.noStamp')} options={stampOptions} />
              <TextField name="stampSize" type="number" label={t('certificate.stampSize')} />
              <TextField name="stampX" type="number" label={t('certificate.stampX')} />
              <TextField name="stampY" type="number" label={t('certificate.stampY')} />
            </FieldGroup>
          </div>
          <Preview form={form} stampFileIds={new Map((stamps.list.data ?? []).map((s) => [s.id, s.fileId]))} />
        </div>
      )}
    </FormScreen>
  );
}

type Form = UseFormReturn<CertificateForm, unknown, unknown>;

function Fields({ form }: { form: Form }) {
  const { t } = useTranslation('meets');
  const rows = useFieldArray({ control: form.control, name: 'fields' });
  const values = useWatch({ control: form.control, name: 'fields' }) ?? [];
  return (
    <fieldset className="grid gap-3" data-testid="certificate-fields">
      <legend className="mb-1 text-sm font-medium">{t('certificate.fields')}</legend>
      <p className="text-sm text-muted-foreground">{t('certificate.fieldsHint')}</p>
      {rows.fields.map((row, i) => (
        <div key={row.id} className="grid grid-cols-2 items-end gap-2 rounded-md bg-muted/40 p-3 sm:grid-cols-4">
          <SelectField name={`fields.${i}.field`} label={t('certificate.field')} required clearable={false} className="col-span-2" options={enumOptions(CERTIFICATE_FIELD_TABLE, t)} />
          {values[i]?.field === 'text' ? <TextField name={`fields.${i}.text`} label={t('certificate.text')} className="col-span-2" /> : null}
          <TextField name={`fields.${i}.x`} type="number" label={t('certificate.x')} />
          <TextField name={`fields.${i}.y`} type="number" label={t('certificate.y')} />
          <TextField name={`fields.${i}.size`} type="number" label={t('certificate.size')} />
          <TextField name={`fields.${i}.color`} label={t('certificate.color')} />
          <SelectField name={`fields.${i}.align`} label={t('certificate.align')} clearable={false} options={enumOptions(ALIGN_TABLE, t)} />
          <label className="flex h-9 items-center gap-2 text-sm">
            <input type="checkbox" {...form.register(`fields.${i}.bold`)} />
            {t('certificate.bold')}
          </label>
          <Button type="button" variant="ghost" size="sm" className="justify-self-start" onClick={() => rows.remove(i)} aria-label={t('certificate.removeField', { no: i + 1 })}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      ))}
      <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => rows.append({ field: 'text', x: 20, y: 20, size: 14, color: '#1f2937', align: 'left', bold: false, text: '' })} data-testid="certificate-add-field">
        <Plus aria-hidden /> {t('certificate.addField')}
      </Button>
    </fieldset>
  );
}

/** The page as the PDF draws it: the same millimetre positions, font sizes scaled to the preview's width. */
function Preview({ form, stampFileIds }: { form: Form; stampFileIds: Map<string, string> }) {
  const { t } = useTranslation('meets');
  const v = useWatch({ control: form.control }) as Partial<CertificateForm>;
  const orientation = v.orientation === 'portrait' ? 'portrait' : 'landscape';
  const [w, h] = PAGE_MM[orientation];
  const background = useFileUrl(v.backgroundFileId ?? null, 'content');
  const stamp = useFileUrl(v.stampId ? (stampFileIds.get(v.stampId) ?? null) : null);
  const sample = t('certificate.sample', { returnObjects: true }) as CertificateValues;
  const pct = (mm: unknown, of: number) => `${(Number(mm) / of) * 100}%`;
  const stampSide = Number(v.stampSize);
  return (
    <section className="grid content-start gap-2 xl:sticky xl:top-4 xl:self-start" aria-label={t('certificate.preview')}>
      <h3 className="text-sm font-medium">{t('certificate.preview')}</h3>
      <p className="text-xs text-muted-foreground">{t('certificate.previewHint')}</p>
      <div className="relative w-full overflow-hidden border bg-white shadow-sm [container-type:inline-size]" style={{ aspectRatio: `${w} / ${h}` }} data-testid="certificate-preview">
        {background ? <img src={background} alt="" className="absolute inset-0 size-full" /> : null}
        {(v.fields ?? []).map((f, i) => {
          if (!f?.field) return null;
          const text = fieldText({ field: f.field, text: f.text }, sample);
          const shift = f.align === 'center' ? '-50%' : f.align === 'right' ? '-100%' : '0';
          // y is the baseline: lift the box by its ascent (about 0.88 em for Noto Sans SC).
          return (
            <span
              key={i}
              className="absolute leading-none whitespace-nowrap"
              style={{
                left: pct(f.x, w),
                top: pct(f.y, h),
                transform: `translate(${shift}, -88%)`,
                fontSize: `${((Number(f.size) * MM_PER_PT) / w) * 100}cqw`,
                color: /^#[0-9a-f]{6}$/i.test(f.color ?? '') ? f.color : undefined,
                fontWeight: f.bold ? 700 : 400,
              }}
            >
              {text}
            </span>
          );
        })}
        {stamp && stampSide > 0 ? (
          <img
            src={stamp}
            alt=""
            className="absolute"
            style={{ left: pct(Number(v.stampX) - stampSide / 2, w), top: pct(Number(v.stampY) - stampSide / 2, h), width: pct(stampSide, w), height: pct(stampSide, h) }}
          />
        ) : null}
      </div>
    </section>
  );
}
