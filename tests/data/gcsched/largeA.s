'./gcwork' +RTS '-N1' '-A16m' '-l' '-ollargeA.eventlog' '-slargeA.s' 
     366,022,480 bytes allocated in the heap
     100,341,080 bytes copied during GC
       6,505,504 bytes maximum residency (6 sample(s))
          52,304 bytes maximum slop
              37 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        16 colls,     0 par    0.075s   0.195s     0.0122s    0.0539s
  Gen  1         6 colls,     0 par    0.034s   0.185s     0.0309s    0.0946s

  TASKS: 4 (1 bound, 3 peak workers (3 total), using -N1)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.119s  (  0.439s elapsed)
  GC      time    0.110s  (  0.380s elapsed)
  EXIT    time    0.003s  (  0.003s elapsed)
  Total   time    0.232s  (  0.822s elapsed)

  Alloc rate    3,080,500,173 bytes per MUT second

  Productivity  51.3% of total user, 53.3% of total elapsed

