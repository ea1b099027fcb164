! SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
!
! likwid.f90 - likwid's Fortran module "likwid" on libperfctr: the marker
! subroutines, whose C entry points libperfctr exports (likwid.c), with
! likwid's names and arguments.  Compile it once for a module file:
!   gfortran -c likwid.f90   (likwid.mod; its object is not needed)
! then: gfortran -fopenmp -DLIKWID_PERFMON prog.F90 -lperfctr.
! likwid_marker(3).
module likwid
    interface
        subroutine likwid_markerInit()
        end subroutine likwid_markerInit

        subroutine likwid_markerThreadInit()
        end subroutine likwid_markerThreadInit

        subroutine likwid_markerNextGroup()
        end subroutine likwid_markerNextGroup

        subroutine likwid_markerClose()
        end subroutine likwid_markerClose

        subroutine likwid_markerWriteFile(markerfile)
            character(*) :: markerfile
        end subroutine likwid_markerWriteFile

        subroutine likwid_markerRegisterRegion(regionTag)
            character(*) :: regionTag
        end subroutine likwid_markerRegisterRegion

        subroutine likwid_markerStartRegion(regionTag)
            character(*) :: regionTag
        end subroutine likwid_markerStartRegion

        subroutine likwid_markerStopRegion(regionTag)
            character(*) :: regionTag
        end subroutine likwid_markerStopRegion

        subroutine likwid_markerResetRegion(regionTag)
            character(*) :: regionTag
        end subroutine likwid_markerResetRegion

        subroutine likwid_markerGetRegion(regionTag, nr_events, events, time, count)
            character(*) :: regionTag
            integer :: nr_events
            double precision, dimension(*) :: events
            double precision :: time
            integer :: count
        end subroutine likwid_markerGetRegion
    end interface
end module likwid
