'./gcwork' +RTS '-N2' '-qg' '-l' '-oln2qg.eventlog' '-sn2qg.s' 
     366,305,752 bytes allocated in the heap
     182,841,496 bytes copied during GC
       6,514,704 bytes maximum residency (16 sample(s))
          55,344 bytes maximum slop
              30 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        61 colls,     0 par    0.026s   0.192s     0.0032s    0.0381s
  Gen  1        16 colls,     0 par    0.012s   0.278s     0.0174s    0.0756s

  TASKS: 6 (1 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.202s  (  0.355s elapsed)
  GC      time    0.039s  (  0.470s elapsed)
  EXIT    time    0.001s  (  0.001s elapsed)
  Total   time    0.242s  (  0.827s elapsed)

  Alloc rate    1,813,900,503 bytes per MUT second

  Productivity  83.4% of total user, 42.9% of total elapsed

