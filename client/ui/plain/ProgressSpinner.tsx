import './plain.css'

/** PrimeReact's ProgressSpinner markup (styled by the theme and ./plain.css) without its code: the boot spinner is drawn before PrimeReact loads. */
export function ProgressSpinner({ strokeWidth = '2', size }: { strokeWidth?: string; size: number }) {
  return (
    <div className="p-progress-spinner" role="progressbar" aria-busy="true" style={{ width: size, height: size }}>
      <svg className="p-progress-spinner-svg" viewBox="25 25 50 50" style={{ animationDuration: '2s' }}>
        <circle className="p-progress-spinner-circle" cx="50" cy="50" r="20" fill="none" strokeWidth={strokeWidth} strokeMiterlimit="10" />
      </svg>
    </div>
  )
}
