'./gcwork' +RTS '-N2' '-qg' '-l-agu' '-oln2qg.eventlog' '-sn2qg.s' 
     366,305,824 bytes allocated in the heap
     185,889,944 bytes copied during GC
       6,515,104 bytes maximum residency (16 sample(s))
          59,680 bytes maximum slop
              30 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        67 colls,     0 par    0.021s   0.072s     0.0011s    0.0060s
  Gen  1        16 colls,     0 par    0.020s   0.045s     0.0028s    0.0089s

  TASKS: 6 (1 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.133s  (  0.117s elapsed)
  GC      time    0.041s  (  0.117s elapsed)
  EXIT    time    0.000s  (  0.000s elapsed)
  Total   time    0.175s  (  0.235s elapsed)

  Alloc rate    2,753,248,219 bytes per MUT second

  Productivity  76.0% of total user, 49.7% of total elapsed

