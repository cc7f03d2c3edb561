{-# LANGUAGE CPP, BangPatterns #-}
-- tpdouble.hs: one program in two builds, for ev2hp's comparison of two time profiles
-- (tests/timecompare.sh). `grow` does GROW times its work (1 in the base build, 2 in the
-- other), `steady` the same work in both builds, `shrink` half of its work in the second
-- (SHRINK 2); each is a strict loop of its own, so its samples are its own cost centre's.
module Main (main) where

#ifndef GROW
#define GROW 1
#endif
#ifndef SHRINK
#define SHRINK 1
#endif

grow :: Int -> Int -> Int
grow 0 !acc = acc
grow n !acc = grow (n - 1) ((acc * 31 + n) `mod` 1000003)

steady :: Int -> Int -> Int
steady 0 !acc = acc
steady n !acc = steady (n - 1) ((acc * 17 + n) `mod` 999983)

shrink :: Int -> Int -> Int
shrink 0 !acc = acc
shrink n !acc = shrink (n - 1) ((acc * 13 + n) `mod` 999979)

main :: IO ()
main = do
  print (grow (GROW * 20000000) 1)
  print (steady 3000000 1)
  print (shrink (2000000 `div` SHRINK) 1)
