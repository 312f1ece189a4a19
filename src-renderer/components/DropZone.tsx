import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { forwardRef, useImperativeHandle, useRef, useState } from 'react'
import { BusyButton } from './Field'
import messages from './DropZone.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

interface Props {
  onFiles: (files: File[]) => void
  /** `accept` of the file picker, e.g. ".pdf,.csv". */
  accept?: string
  title?: string
  hint?: string
  busy?: boolean
  large?: boolean
}

export interface DropZoneHandle {
  openPicker(): void
}

/**
 * Takes files dragged from the OS file manager, or picked with the "Add files…" button (a hidden
 * <input type=file multiple>). The same files → bytes path serves Electron and the web host.
 */
export const DropZone = forwardRef<DropZoneHandle, Props>(function DropZone(
  { onFiles, accept, title, hint, busy, large },
  ref,
) {
  const intl = useI18n()
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)
  const depth = useRef(0)

  useImperativeHandle(ref, () => ({ openPicker: () => input.current?.click() }), [])

  const hasFiles = (e: React.DragEvent) => [...e.dataTransfer.types].includes('Files')

  return (
    <div
      className={`dropzone${over ? ' dropzone--over' : ''}${large ? ' dropzone--large' : ''}`}
      onDragEnter={(e) => {
        if (!hasFiles(e)) return
        e.preventDefault()
        depth.current++
        setOver(true)
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return
        e.preventDefault()
        e.dataTransfer.dropEffect = 'copy'
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1)
        if (depth.current === 0) setOver(false)
      }}
      onDrop={(e) => {
        e.preventDefault()
        e.stopPropagation()
        depth.current = 0
        setOver(false)
        const files = [...e.dataTransfer.files]
        if (files.length) onFiles(files)
      }}
    >
      <div className="dropzone__icon" aria-hidden="true">
        ⇪
      </div>
      <p className="dropzone__title">
        {over ? intl.formatMessage(m.release) : (title ?? intl.formatMessage(m.title))}
      </p>
      {hint ? <p className="dropzone__hint">{hint}</p> : null}
      <BusyButton
        className="btn btn--primary"
        onClick={() => input.current?.click()}
        busy={Boolean(busy)}
        busyLabel={intl.formatMessage(m.reading)}
      >
        {intl.formatMessage(m.add)}
      </BusyButton>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={accept}
        aria-label={intl.formatMessage(m.input)}
        tabIndex={-1}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          e.target.value = ''
          if (files.length) onFiles(files)
        }}
      />
    </div>
  )
})
