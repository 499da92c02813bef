import { useEffect, useRef, useState, type ReactNode } from 'react';
import Image from '@tiptap/extension-image';
import { EditorContent, mergeAttributes, Node, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Bold, Heading2, Heading3, ImagePlus, Italic, Link2, List, ListOrdered, Quote, Redo2, Strikethrough, Underline, Undo2, Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { RICH_TEXT_LINK } from '@/domain/content/rich-text';
import { checkFile, type FilePurpose } from '@/domain/uploads/rules';
import { SNIFF_BYTES, sniffFileType } from '@/domain/uploads/signatures';
import { fileStoreTransport, type UploadTransport } from '@/components/upload/file-store';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/cn';
import { i18next } from '@/lib/i18n';
import { canonicalFileSources, withLoadedFiles } from './rich-text';
import { RICH_TEXT_CLASS } from './rich-text-view';

/** The file a node shows, kept as `data-file-id` (its src is an object URL while editing). */
const fileIdAttribute = {
  fileId: {
    default: null,
    parseHTML: (el: HTMLElement) => el.getAttribute('data-file-id'),
    renderHTML: (attrs: { fileId?: string | null }) => (attrs.fileId ? { 'data-file-id': attrs.fileId } : {}),
  },
};

const FileImage = Image.extend({
  addAttributes() {
    return { ...this.parent?.(), ...fileIdAttribute };
  },
}).configure({ inline: false, allowBase64: false });

/** A video of the file store (Tiptap has none built in). */
const FileVideo = Node.create({
  name: 'video',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    return { src: { default: null }, ...fileIdAttribute };
  },
  parseHTML() {
    return [{ tag: 'video[data-file-id]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['video', mergeAttributes(HTMLAttributes, { controls: '' })];
  },
});

export interface RichTextEditorProps {
  /** Stored HTML (file elements point at their content path). */
  value: string;
  onChange(html: string): void;
  transport?: UploadTransport;
  id?: string;
  'aria-label'?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** Checks type by content and size first (the server checks again), then uploads. */
async function uploadChecked(transport: UploadTransport, file: File, purpose: FilePurpose, onProgress: (p: number) => void) {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  const problem = checkFile(purpose, sniffFileType(head), file.size);
  if (problem) throw new Error(i18next.t(problem));
  return transport.start(file, purpose, onProgress).done;
}

function ToolButton({ label, active, onClick, children, disabled }: { label: string; active?: boolean; onClick(): void; children: ReactNode; disabled?: boolean }) {
  return (
    <Button type="button" variant={active ? 'secondary' : 'ghost'} size="icon" className="size-8" aria-label={label} aria-pressed={active} title={label} onClick={onClick} disabled={disabled}>
      {children}
    </Button>
  );
}

function LinkButton({ editor }: { editor: Editor }) {
  const { t } = useTranslation('content');
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const valid = href === '' || RICH_TEXT_LINK.test(href);
  const apply = () => {
    if (!valid) return;
    const chain = editor.chain().focus().extendMarkRange('link');
    if (href === '') chain.unsetLink().run();
    else chain.setLink({ href }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        if (next) setHref((editor.getAttributes('link').href as string | undefined) ?? '');
        setOpen(next);
      }}
    >
      <PopoverTrigger asChild>
        <Button type="button" variant={editor.isActive('link') ? 'secondary' : 'ghost'} size="icon" className="size-8" aria-label={t('editor.link')} title={t('editor.link')}>
          <Link2 aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="grid w-80 gap-2">
        <Input
          value={href}
          onChange={(e) => setHref(e.target.value.trim())}
          placeholder={t('editor.linkPlaceholder')}
          aria-label={t('editor.link')}
          aria-invalid={!valid || undefined}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              apply();
            }
          }}
        />
        {!valid ? <p className="text-xs text-destructive">{t('editor.linkInvalid')}</p> : null}
        <div className="flex justify-end gap-2">
          <Button type="button" size="sm" onClick={apply} disabled={!valid}>
            {t('editor.apply')}
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}

/**
 * Rich text of a wiki entry (docs/product-rules.md#wiki): Tiptap with headings, lists, quotes, links (http(s) and
 * mailto only), images and videos uploaded to the file store. The value is stored HTML; while editing, file elements
 * show object URLs, and every change hands back the stored form.
 */
export function RichTextEditor({ value, onChange, transport = fileStoreTransport, id, ...aria }: RichTextEditorProps) {
  const { t } = useTranslation('content');
  const [busy, setBusy] = useState<string | null>(null);
  const urls = useRef<string[]>([]);
  const imageInput = useRef<HTMLInputElement>(null);
  const videoInput = useRef<HTMLInputElement>(null);
  // The stored HTML the editor shows; null until the first load.
  const shown = useRef<string | null>(null);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'], isAllowedUri: (url) => RICH_TEXT_LINK.test(url) },
      }),
      FileImage,
      FileVideo,
    ],
    content: '',
    editorProps: {
      attributes: {
        class: cn(RICH_TEXT_CLASS, 'min-h-72 px-4 py-3 outline-none'),
        ...(id ? { id } : {}),
        role: 'textbox',
        'aria-multiline': 'true',
        ...(aria['aria-label'] ? { 'aria-label': aria['aria-label'] } : {}),
        ...(aria['aria-invalid'] ? { 'aria-invalid': 'true' } : {}),
        ...(aria['aria-describedby'] ? { 'aria-describedby': aria['aria-describedby'] } : {}),
      },
    },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : canonicalFileSources(e.getHTML());
      shown.current = html;
      onChange(html);
    },
  });

  // Loads the stored text (with its files) when it comes from outside: the record arrived, or the form was reset.
  useEffect(() => {
    if (!editor || value === shown.current) return;
    shown.current = value;
    let live = true;
    void withLoadedFiles(value).then((loaded) => {
      if (!live) return loaded.urls.forEach((u) => URL.revokeObjectURL(u));
      urls.current.push(...loaded.urls);
      editor.commands.setContent(loaded.html, { emitUpdate: false });
    });
    return () => {
      live = false;
    };
  }, [editor, value]);
  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            bold: e.isActive('bold'),
            italic: e.isActive('italic'),
            underline: e.isActive('underline'),
            strike: e.isActive('strike'),
            h2: e.isActive('heading', { level: 2 }),
            h3: e.isActive('heading', { level: 3 }),
            bullet: e.isActive('bulletList'),
            ordered: e.isActive('orderedList'),
            quote: e.isActive('blockquote'),
            canUndo: e.can().undo(),
            canRedo: e.can().redo(),
          }
        : null,
  });

  const insertFile = async (file: File, kind: 'image' | 'video') => {
    if (!editor) return;
    setBusy(t('editor.uploading', { percent: 0 }));
    try {
      const stored = await uploadChecked(transport, file, kind, (percent) => setBusy(t('editor.uploading', { percent })));
      const url = URL.createObjectURL(file);
      urls.current.push(url);
      const content = kind === 'image' ? { type: 'image', attrs: { src: url, alt: file.name, fileId: stored.id } } : { type: 'video', attrs: { src: url, fileId: stored.id } };
      editor.chain().focus().insertContent(content).run();
    } catch (error) {
      toast.warning(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  if (!editor || !state) return <div className="min-h-72 rounded-md border" />;
  const run = (f: (c: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () => void f(editor.chain().focus()).run();
  return (
    <div data-slot="rich-text-editor" data-testid="rich-text-editor" className={cn('rounded-md border bg-background shadow-xs focus-within:ring-[3px] focus-within:ring-ring/50', aria['aria-invalid'] && 'border-destructive')}>
      <div role="toolbar" aria-label={t('editor.toolbar')} className="flex flex-wrap items-center gap-0.5 border-b px-2 py-1">
        <ToolButton label={t('editor.bold')} active={state.bold} onClick={run((c) => c.toggleBold())}>
          <Bold aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.italic')} active={state.italic} onClick={run((c) => c.toggleItalic())}>
          <Italic aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.underline')} active={state.underline} onClick={run((c) => c.toggleUnderline())}>
          <Underline aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.strike')} active={state.strike} onClick={run((c) => c.toggleStrike())}>
          <Strikethrough aria-hidden />
        </ToolButton>
        <span className="mx-1 h-5 w-px bg-border" aria-hidden />
        <ToolButton label={t('editor.h2')} active={state.h2} onClick={run((c) => c.toggleHeading({ level: 2 }))}>
          <Heading2 aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.h3')} active={state.h3} onClick={run((c) => c.toggleHeading({ level: 3 }))}>
          <Heading3 aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.bullet')} active={state.bullet} onClick={run((c) => c.toggleBulletList())}>
          <List aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.ordered')} active={state.ordered} onClick={run((c) => c.toggleOrderedList())}>
          <ListOrdered aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.quote')} active={state.quote} onClick={run((c) => c.toggleBlockquote())}>
          <Quote aria-hidden />
        </ToolButton>
        <LinkButton editor={editor} />
        <span className="mx-1 h-5 w-px bg-border" aria-hidden />
        <ToolButton label={t('editor.image')} onClick={() => imageInput.current?.click()} disabled={busy !== null}>
          <ImagePlus aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.video')} onClick={() => videoInput.current?.click()} disabled={busy !== null}>
          <Video aria-hidden />
        </ToolButton>
        <span className="mx-1 h-5 w-px bg-border" aria-hidden />
        <ToolButton label={t('editor.undo')} onClick={run((c) => c.undo())} disabled={!state.canUndo}>
          <Undo2 aria-hidden />
        </ToolButton>
        <ToolButton label={t('editor.redo')} onClick={run((c) => c.redo())} disabled={!state.canRedo}>
          <Redo2 aria-hidden />
        </ToolButton>
        {busy ? (
          <span role="status" className="ml-auto text-xs text-muted-foreground">
            {busy}
          </span>
        ) : null}
      </div>
      <EditorContent editor={editor} />
      <input
        ref={imageInput}
        type="file"
        accept=".png,.jpg,.jpeg,.gif,.webp,image/png,image/jpeg,image/gif,image/webp"
        className="hidden"
        data-testid="rich-text-image-input"
        tabIndex={-1}
        aria-hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void insertFile(file, 'image');
        }}
      />
      <input
        ref={videoInput}
        type="file"
        accept=".mp4,video/mp4"
        className="hidden"
        tabIndex={-1}
        aria-hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void insertFile(file, 'video');
        }}
      />
    </div>
  );
}
