import { Link } from 'react-router'

/**
 * The MetaModel mark and name, linking home. Named by its own text ("MetaModel home", the last
 * word visually hidden) rather than an aria-label: speech-input users say what they see, and a
 * label without the visible text (the "M" of the mark counts) fails WCAG 2.5.3, Label in Name.
 */
export function BrandLink({ className, onClick }: { className?: string; onClick?: () => void }) {
  return (
    <Link to="/" className={className ? `brand ${className}` : 'brand'} onClick={onClick}>
      <span className="brand__mark" aria-hidden="true">
        M
      </span>
      <span className="brand__name">MetaModel</span>
      <span className="visually-hidden"> home</span>
    </Link>
  )
}
