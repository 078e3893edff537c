//! Sparse physical memory of the 3DS as the GPU sees it.
//!
//! Only the two regions the GPU can reach are mapped (pica-facts §5, 3dbrew Memory layout):
//! VRAM 0x18000000–0x185FFFFF (6 MiB) and FCRAM 0x20000000–0x27FFFFFF (128 MiB, original
//! model). Pages are allocated on first write; unwritten mapped memory reads as zero. An access
//! outside both regions is an error the caller turns into a `Hang` (GPU side) or a bad-input
//! message (file side). Words are little-endian, as on the 3DS.

/// One mapped region of physical memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Short name used in messages ("VRAM", "FCRAM").
    pub name: &'static str,
    /// First physical address of the region.
    pub start: u32,
    /// Size in bytes.
    pub size: u32,
}

impl Region {
    /// Whether `[addr, addr + len)` lies entirely inside this region.
    pub fn contains(&self, addr: u32, len: u32) -> bool {
        let (a, l, s, z) = (
            u64::from(addr),
            u64::from(len),
            u64::from(self.start),
            u64::from(self.size),
        );
        a >= s && a + l <= s + z
    }
}

/// VRAM: 6 MiB at 0x18000000 (3dbrew Memory layout).
pub const VRAM: Region = Region {
    name: "VRAM",
    start: 0x1800_0000,
    size: 0x60_0000,
};
/// FCRAM: 128 MiB at 0x20000000 (original 3DS; 3dbrew Memory layout).
pub const FCRAM: Region = Region {
    name: "FCRAM",
    start: 0x2000_0000,
    size: 0x800_0000,
};
/// Every region the GPU can address.
pub const REGIONS: [Region; 2] = [VRAM, FCRAM];

const PAGE_BITS: u32 = 12;
const PAGE_SIZE: usize = 1 << PAGE_BITS;

/// An access outside the mapped regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("physical address range 0x{addr:08x}..+0x{len:x} is outside VRAM (0x18000000-0x185fffff) and FCRAM (0x20000000-0x27ffffff)")]
pub struct Unmapped {
    /// First address of the failed access.
    pub addr: u32,
    /// Length of the failed access in bytes.
    pub len: u32,
}

/// Sparse, page-allocated physical memory.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// Page tables of VRAM and FCRAM, indexed by page number within the region and grown on
    /// first write up to the highest page written (`None`: never written, reads zero). A
    /// lookup is an index, not a tree search: TEX, FOP and VL read memory per texel, pixel
    /// and attribute.
    tables: [Vec<Option<Box<[u8; PAGE_SIZE]>>>; REGIONS.len()],
    /// Allocated pages.
    allocated: usize,
    /// Writes so far ([`Memory::write_count`]).
    writes: u64,
    /// Per page, parallel to `tables`: the write count of the last write to it (0: never
    /// written). A cache in front of memory (the RTL texture units' texel cache) asks
    /// [`Memory::written_since`] whether what it holds went stale.
    stamps: [Vec<u64>; REGIONS.len()],
}

/// The page-table slot of the page holding `addr`: (region index in [`REGIONS`], page index
/// within the region); `None` outside both regions.
#[inline]
fn slot(addr: u32) -> Option<(usize, usize)> {
    REGIONS
        .iter()
        .enumerate()
        .find(|(_, r)| r.contains(addr, 1))
        .map(|(i, r)| (i, ((addr - r.start) >> PAGE_BITS) as usize))
}

impl Memory {
    /// Empty memory: every mapped byte reads as zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// The region holding all of `[addr, addr + len)`, if any.
    pub fn region_of(addr: u32, len: u32) -> Option<Region> {
        REGIONS.into_iter().find(|r| r.contains(addr, len))
    }

    fn check(addr: u32, len: u32) -> Result<(), Unmapped> {
        Self::region_of(addr, len)
            .map(|_| ())
            .ok_or(Unmapped { addr, len })
    }

    /// Copies `data` to `addr`. The whole range must lie in one region.
    pub fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), Unmapped> {
        let len = u32::try_from(data.len()).map_err(|_| Unmapped {
            addr,
            len: u32::MAX,
        })?;
        Self::check(addr, len)?;
        self.writes += 1;
        let mut addr = addr;
        let mut rest = data;
        while !rest.is_empty() {
            // In range: check() proved the whole write lies in a region below 4 GiB.
            let off = (addr as usize) & (PAGE_SIZE - 1);
            let n = rest.len().min(PAGE_SIZE - off);
            let page = self.page_mut(addr).ok_or(Unmapped { addr, len })?;
            page[off..off + n].copy_from_slice(&rest[..n]);
            rest = &rest[n..];
            addr = addr.wrapping_add(n as u32);
        }
        Ok(())
    }

    /// Reads one byte.
    pub fn read_u8(&self, addr: u32) -> Result<u8, Unmapped> {
        Self::check(addr, 1)?;
        Ok(self
            .page(addr)
            .map_or(0, |p| p[(addr as usize) & (PAGE_SIZE - 1)]))
    }

    /// Reads a little-endian 32-bit word. `addr` need not be aligned.
    pub fn read_u32(&self, addr: u32) -> Result<u32, Unmapped> {
        Self::check(addr, 4)?;
        let off = (addr as usize) & (PAGE_SIZE - 1);
        if off + 4 <= PAGE_SIZE {
            // Fast path: the word lies in one page.
            return Ok(self.page(addr).map_or(0, |p| {
                u32::from_le_bytes([p[off], p[off + 1], p[off + 2], p[off + 3]])
            }));
        }
        let mut b = [0u8; 4];
        for (i, byte) in b.iter_mut().enumerate() {
            *byte = self.read_u8(addr + i as u32)?;
        }
        Ok(u32::from_le_bytes(b))
    }

    /// Writes a little-endian 32-bit word.
    pub fn write_u32(&mut self, addr: u32, value: u32) -> Result<(), Unmapped> {
        self.write_bytes(addr, &value.to_le_bytes())
    }

    /// Fills `buf` with the bytes at `addr..addr + buf.len()`; an error (and `buf` unspecified)
    /// if any of them is unmapped. One region check and one page lookup per page touched,
    /// instead of one per byte ([`Memory::read_u8`]).
    pub fn read_into(&self, addr: u32, buf: &mut [u8]) -> Result<(), Unmapped> {
        let len = u32::try_from(buf.len()).map_err(|_| Unmapped {
            addr,
            len: u32::MAX,
        })?;
        Self::check(addr, len)?;
        let mut addr = addr;
        let mut rest = buf;
        while !rest.is_empty() {
            // In range: check() proved the whole read lies in a region below 4 GiB.
            let off = (addr as usize) & (PAGE_SIZE - 1);
            let n = rest.len().min(PAGE_SIZE - off);
            let (chunk, tail) = rest.split_at_mut(n);
            match self.page(addr) {
                Some(p) => chunk.copy_from_slice(&p[off..off + n]),
                None => chunk.fill(0),
            }
            rest = tail;
            addr = addr.wrapping_add(n as u32);
        }
        Ok(())
    }

    /// Writes consecutive little-endian words starting at `addr`.
    pub fn write_words(&mut self, addr: u32, words: &[u32]) -> Result<(), Unmapped> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.write_bytes(addr, &bytes)
    }

    /// How many writes memory has taken (a write of any length counts once).
    pub fn write_count(&self) -> u64 {
        self.writes
    }

    /// Whether a byte of `[addr, end)` (mapped or not) was written after write number `since`
    /// ([`Memory::write_count`] then); page-granular, so it may say yes for a write beside
    /// the range in the same 4 KiB page.
    pub fn written_since(&self, addr: u64, end: u64, since: u64) -> bool {
        if self.writes <= since {
            return false;
        }
        REGIONS.iter().zip(&self.stamps).any(|(r, stamps)| {
            let (s, e) = (u64::from(r.start), u64::from(r.start) + u64::from(r.size));
            let (lo, hi) = (addr.max(s), end.min(e));
            lo < hi
                && stamps
                    .iter()
                    .skip(((lo - s) >> PAGE_BITS) as usize)
                    .take((((hi - 1 - s) >> PAGE_BITS) - ((lo - s) >> PAGE_BITS) + 1) as usize)
                    .any(|&w| w > since)
        })
    }

    /// Number of allocated 4 KiB pages (a memory-footprint figure for benchmarks).
    pub fn allocated_pages(&self) -> usize {
        self.allocated
    }

    /// Allocated pages as (base address, bytes), in address order; for dumps.
    pub fn pages(&self) -> impl Iterator<Item = (u32, &[u8])> {
        // REGIONS is in address order (VRAM below FCRAM), and so is each table.
        REGIONS.iter().zip(&self.tables).flat_map(|(r, t)| {
            t.iter().enumerate().filter_map(move |(i, p)| {
                let base = r.start + ((i as u32) << PAGE_BITS);
                p.as_deref().map(|d| (base, &d[..]))
            })
        })
    }

    /// The page holding `addr`, if it was ever written.
    #[inline]
    fn page(&self, addr: u32) -> Option<&[u8; PAGE_SIZE]> {
        let (region, index) = slot(addr)?;
        self.tables.get(region)?.get(index)?.as_deref()
    }

    /// The page holding `addr`, allocated (zeroed) if it was not; `None` outside the regions.
    fn page_mut(&mut self, addr: u32) -> Option<&mut [u8; PAGE_SIZE]> {
        let (region, index) = slot(addr)?;
        let table = self.tables.get_mut(region)?;
        if table.len() <= index {
            table.resize_with(index + 1, || None);
        }
        let stamps = self.stamps.get_mut(region)?;
        if stamps.len() <= index {
            stamps.resize(index + 1, 0);
        }
        if let Some(s) = stamps.get_mut(index) {
            *s = self.writes;
        }
        let entry = table.get_mut(index)?;
        if entry.is_none() {
            self.allocated += 1;
        }
        Some(entry.get_or_insert_with(|| Box::new([0; PAGE_SIZE])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_unwritten_mapped_reads_zero() {
        let m = Memory::new();
        assert_eq!(m.read_u32(0x1800_0000), Ok(0));
        assert_eq!(m.read_u32(0x27FF_FFFC), Ok(0));
    }

    #[test]
    fn mem_words_are_little_endian_and_cross_pages() {
        let mut m = Memory::new();
        m.write_u32(0x2000_0FFE, 0x1122_3344).unwrap();
        assert_eq!(m.read_u8(0x2000_0FFE), Ok(0x44));
        assert_eq!(m.read_u8(0x2000_1001), Ok(0x11));
        assert_eq!(m.read_u32(0x2000_0FFE), Ok(0x1122_3344));
        assert_eq!(m.allocated_pages(), 2);
    }

    #[test]
    fn mem_large_writes_span_pages_exactly() {
        let mut m = Memory::new();
        let data: Vec<u8> = (0..10_000u32).map(|i| (i * 7) as u8).collect();
        m.write_bytes(0x1800_0FF0, &data).unwrap();
        for (i, b) in data.iter().enumerate() {
            assert_eq!(m.read_u8(0x1800_0FF0 + i as u32), Ok(*b));
        }
        assert_eq!(m.read_u8(0x1800_0FEF), Ok(0));
        assert_eq!(m.read_u8(0x1800_0FF0 + 10_000), Ok(0));
        assert_eq!(m.allocated_pages(), 4);
    }

    #[test]
    fn mem_written_since_names_the_pages_written() {
        let mut m = Memory::new();
        assert!(!m.written_since(0x1800_0000, 0x1860_0000, 0));
        m.write_u32(0x1800_2000, 1).unwrap();
        let after_first = m.write_count();
        assert_eq!(after_first, 1);
        assert!(m.written_since(0x1800_2FFC, 0x1800_3000, 0));
        assert!(m.written_since(0x1800_0000, 0x1800_2001, 0));
        assert!(!m.written_since(0x1800_0000, 0x1800_2000, 0));
        assert!(!m.written_since(0x1800_3000, 0x2000_0000, 0));
        assert!(!m.written_since(0x1800_2000, 0x1800_2004, after_first));
        m.write_u32(0x2000_0010, 2).unwrap();
        assert!(m.written_since(0x1000_0000, 0x3000_0000, after_first));
        assert!(!m.written_since(0x1800_0000, 0x1860_0000, after_first));
        // A failed write changes nothing.
        assert!(m.write_u32(0x1000_0000, 3).is_err());
        assert_eq!(m.write_count(), 2);
    }

    #[test]
    fn mem_read_into_equals_bytewise_reads() {
        let mut m = Memory::new();
        m.write_bytes(0x1800_0FFA, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
            .unwrap();
        // Across a written page into an unwritten one, and inside one.
        for (addr, len) in [(0x1800_0FF8, 16), (0x1800_0FFC, 3), (0x1800_2000, 4)] {
            let mut buf = vec![0xEE; len];
            m.read_into(addr, &mut buf).unwrap();
            let want: Vec<u8> = (0..len as u32)
                .map(|i| m.read_u8(addr + i).unwrap())
                .collect();
            assert_eq!(buf, want, "0x{addr:08x}");
        }
        let mut buf = [0; 4];
        assert_eq!(
            m.read_into(0x185F_FFFE, &mut buf),
            Err(Unmapped {
                addr: 0x185F_FFFE,
                len: 4
            })
        );
        assert!(m.read_into(0xFFFF_FFFE, &mut buf).is_err());
    }

    #[test]
    fn mem_outside_regions_is_unmapped() {
        let mut m = Memory::new();
        assert_eq!(
            m.read_u32(0x1860_0000),
            Err(Unmapped {
                addr: 0x1860_0000,
                len: 4
            })
        );
        // A word straddling the end of VRAM is refused whole.
        assert!(m.read_u32(0x185F_FFFE).is_err());
        assert!(m.write_bytes(0x0, &[1]).is_err());
        assert!(m.write_u32(0xFFFF_FFFE, 0).is_err());
        assert_eq!(m.allocated_pages(), 0);
    }
}
