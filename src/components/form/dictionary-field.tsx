import { useFormContext } from 'react-hook-form';
import type { DictionaryCode } from '@/domain/dictionaries/dictionaries';
import { useDictionary } from '@/components/dictionary/use-dictionary';
import { SelectField, type ChoiceProps, type FieldProps } from './fields';

/**
 * A select of a dictionary's entries (docs/product-rules.md#dictionaries): the organisation's enabled entries, plus the
 * value the record was loaded with when its entry has been disabled since. Pair it with FormScreen's `dictionaries`,
 * which checks the value as the server does.
 */
export function DictionaryField({
  dictionary,
  ...props
}: FieldProps & ChoiceProps & { dictionary: DictionaryCode; placeholder?: string; clearable?: boolean }) {
  const { formState } = useFormContext();
  const loaded = (formState.defaultValues as Record<string, unknown> | undefined)?.[props.name];
  const options = useDictionary(dictionary).options(typeof loaded === 'string' ? loaded : null);
  return <SelectField {...props} options={options} />;
}
