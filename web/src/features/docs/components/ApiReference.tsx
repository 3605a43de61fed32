import { useEffect, useMemo, useRef } from 'react'
import { RedocStandalone } from 'redoc'
// The committed document (`make openapi`), bundled into this lazily loaded chunk only.
import openapi from '../../../../openapi.json'
import { keepHeadingsOrdered } from '../headingLevels'
import { filterPublicSpec, type OpenApiDocument } from '../publicSpec'

interface ApiReferenceProps {
  origin: string
  /** The level of the page's heading the reference sits under (/docs/api: the h2 "Reference"). */
  parentHeadingLevel?: number
}

/** The public operations' reference, rendered by Redoc from our own build (no CDN). */
export default function ApiReference({ origin, parentHeadingLevel = 2 }: ApiReferenceProps) {
  const spec = useMemo(() => filterPublicSpec(openapi as unknown as OpenApiDocument, origin), [origin])
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => keepHeadingsOrdered(box.current!, parentHeadingLevel), [parentHeadingLevel])
  return (
    <div ref={box}>
      <RedocStandalone
        spec={spec}
        options={{
          disableSearch: true,
          hideDownloadButton: true,
          expandResponses: '200,201',
          jsonSampleExpandLevel: 3,
          nativeScrollbars: true,
          scrollYOffset: 0,
          theme: {
            breakpoints: { small: '50rem', medium: '75rem', large: '105rem' },
            typography: { fontFamily: 'inherit', headings: { fontFamily: 'inherit' } },
            sidebar: { width: '220px' },
            rightPanel: { width: '40%' },
          },
        }}
      />
    </div>
  )
}
