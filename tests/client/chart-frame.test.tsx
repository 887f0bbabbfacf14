// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ChartFrame, MAX_TABLE_ROWS } from '../../client/widgets/shared/ChartFrame'

afterEach(cleanup)

const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => [`01/01/2025 ${String(i % 24).padStart(2, '0')}:00`, i])

describe('the data table of a chart', () => {
  it('draws every row of a short series', () => {
    render(
      <ChartFrame title="OMIE" summary="s" table={{ columns: ['Fecha', 'Precio'], rows: rowsOf(24) }}>
        <span />
      </ChartFrame>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Ver datos' }))
    expect(screen.getByRole('region', { name: 'Datos: OMIE' }).querySelectorAll('tbody tr')).toHaveLength(24)
    expect(screen.queryByText(/Se muestran las primeras/)).toBeNull()
  })

  it('draws the first rows of a year of quarter-hours and says the export has them all', () => {
    const total = 35_040
    render(
      <ChartFrame title="OMIE" summary="s" table={{ columns: ['Fecha', 'Precio'], rows: rowsOf(total) }}>
        <span />
      </ChartFrame>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Ver datos' }))
    const region = screen.getByRole('region', { name: 'Datos: OMIE' })
    expect(region.querySelectorAll('tbody tr')).toHaveLength(MAX_TABLE_ROWS)
    expect(region.textContent).toContain(`Se muestran las primeras ${MAX_TABLE_ROWS.toLocaleString('es-ES')} filas de ${total.toLocaleString('es-ES')}`)
  })
})
